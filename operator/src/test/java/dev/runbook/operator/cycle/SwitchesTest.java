package dev.runbook.operator.cycle;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.BundleSpecParser;
import dev.runbook.operator.error.InvalidAnnotationException;
import dev.runbook.rules.fact.Primary;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SwitchesTest {
    static final BundleSpec ENFORCING = BundleSpecParser.parse("name: b\nprimary: {apiVersion: x.dev/v1, kind: App}\n");
    static final BundleSpec OBSERVING = BundleSpecParser.parse("name: b\nmode: observe\nprimary: {apiVersion: x.dev/v1, kind: App}\n");

    static Primary primary(Map<String, String> annotations) {
        return new Primary(Map.of("apiVersion", "x.dev/v1", "kind", "App",
                "metadata", Map.of("name", "a", "namespace", "ns", "annotations", annotations)));
    }

    @Test
    void theBundlesModeHoldsWithoutAnnotations() {
        assertThat(Switches.of(primary(Map.of()), ENFORCING)).isEqualTo(new Switches(BundleSpec.Mode.ENFORCE, false));
        assertThat(Switches.of(primary(Map.of()), ENFORCING).acts()).isTrue();
        assertThat(Switches.of(primary(Map.of()), OBSERVING).acts()).isFalse();
    }

    @Test
    void theModeAnnotationOverridesTheBundleEitherWay() {
        assertThat(Switches.of(primary(Map.of("runbook.dev/mode", "observe")), ENFORCING).mode()).isEqualTo(BundleSpec.Mode.OBSERVE);
        assertThat(Switches.of(primary(Map.of("runbook.dev/mode", "Enforce")), OBSERVING).mode()).isEqualTo(BundleSpec.Mode.ENFORCE);
    }

    @Test
    void thePauseAnnotationStopsActions() {
        Switches paused = Switches.of(primary(Map.of("runbook.dev/paused", "true")), ENFORCING);
        assertThat(paused.paused()).isTrue();
        assertThat(paused.acts()).isFalse();
        assertThat(Switches.of(primary(Map.of("runbook.dev/paused", "false")), ENFORCING).acts()).isTrue();
    }

    @Test
    void unknownValuesAreRefusedWithTheFix() {
        assertThatThrownBy(() -> Switches.of(primary(Map.of("runbook.dev/mode", "dry-run")), ENFORCING))
                .isInstanceOf(InvalidAnnotationException.class)
                .hasMessage("annotation runbook.dev/mode: 'dry-run' is not a mode: use observe or enforce "
                        + "(or remove it to follow the bundle's mode, enforce)");
        assertThatThrownBy(() -> Switches.of(primary(Map.of("runbook.dev/paused", "yes")), ENFORCING))
                .isInstanceOf(InvalidAnnotationException.class)
                .hasMessageContaining("'yes' is not \"true\" or \"false\"");
    }
}
