package dev.runbook.engine.bundle;

import dev.runbook.rules.fact.Resource;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PauseTest {
    private static final String HEAD = "name: b\nprimary: {apiVersion: example.runbook.dev/v1, kind: Valve, plural: valves}\n";

    private static Resource valve(Map<String, String> annotations, Map<String, Object> spec) {
        return new Resource(Map.of("apiVersion", "example.runbook.dev/v1", "kind", "Valve",
                "metadata", Map.of("name", "v", "namespace", "demo", "annotations", annotations), "spec", spec));
    }

    @Test
    void anAnnotationPausesWhenItsValueIsTrue() {
        BundleSpec spec = BundleSpecParser.parse(HEAD + "pause: {annotation: example.com/paused}\n");

        assertThat(spec.pause().describe()).isEqualTo("annotation example.com/paused");
        assertThat(spec.paused(valve(Map.of("example.com/paused", " True"), Map.of()))).isTrue();
        assertThat(spec.paused(valve(Map.of("example.com/paused", "false"), Map.of()))).isFalse();
        assertThat(spec.paused(valve(Map.of(), Map.of("paused", true)))).isFalse();
    }

    @Test
    void aSpecFieldPausesWhenTrueAndNoPauseSectionPausesNothing() {
        assertThat(BundleSpecParser.parse(HEAD + "pause: {field: spec.paused}\n").paused(valve(Map.of(), Map.of("paused", true)))).isTrue();
        assertThat(BundleSpecParser.parse(HEAD).paused(valve(Map.of(), Map.of("paused", true)))).isFalse();
    }

    @Test
    void aPauseNeedsExactlyOneWayAndAFieldUnderSpec() {
        assertThatThrownBy(() -> BundleSpecParser.parse(HEAD + "pause: {field: spec.paused, annotation: a/b}\n"))
                .hasMessageContaining("bundle.yaml:3").hasMessageContaining("give exactly one of field");
        assertThatThrownBy(() -> BundleSpecParser.parse(HEAD + "pause: {field: status.paused}\n"))
                .hasMessageContaining("'status.paused' is not under spec");
    }
}
