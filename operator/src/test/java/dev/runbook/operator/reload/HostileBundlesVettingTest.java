package dev.runbook.operator.reload;

import dev.runbook.engine.hostile.HostileBundle;
import dev.runbook.operator.testkit.ProjectFiles;
import dev.runbook.operator.controller.BundleRefusedException;
import dev.runbook.operator.testkit.NeedsSandbox;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;
import java.util.TimeZone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Every bundle of the hostile corpus, packed as a bundle ConfigMap's data and vetted as the operator
 * vets what it is sent (the gate before a reload): refused as a bundle that does not compile, with
 * the place of the refusal first, and none of the payloads runs. The same vetting then accepts a
 * good bundle: a refusal never stops the next ConfigMap.
 */
@NeedsSandbox
class HostileBundlesVettingTest {
    private final BundleVetting vetting = new BundleVetting();
    private TimeZone zone;

    static List<HostileBundle> corpus() {
        return HostileBundle.all(ProjectFiles.of("engine/src/test/resources/bundles/hostile"));
    }

    @BeforeEach
    void rememberTheZone() {
        zone = TimeZone.getDefault();
    }

    @AfterEach
    void undoAnyPayload() {
        corpus().forEach(b -> b.reset(zone));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void theConfigMapIsRefusedAtItsPlaceAndRunsNothing(HostileBundle bundle) {
        bundle.reset(zone);
        var data = BundleConfigMaps.pack(bundle.directory());

        var refusal = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> catchThrowableOfType(BundleRefusedException.class,
                () -> vetting.vetData("configmap/ops/" + bundle.name(), data)));

        assertThat(refusal).as("vetting %s must refuse it", bundle).isNotNull();
        assertThat(refusal.getMessage()).isEqualTo("configmap/ops/" + bundle.name() + ": refused: the bundle does not compile");
        assertThat(refusal.details().get(0)).startsWith(bundle.refusedAt() + ":").contains(bundle.mentions());
        assertThat(bundle.payloadRan()).as("the payload of %s must not have run", bundle).isFalse();
    }

    @org.junit.jupiter.api.Test
    void afterTheHostileBundlesAGoodOneIsVetted() {
        for (HostileBundle bundle : corpus().subList(0, 3)) {
            catchThrowableOfType(BundleRefusedException.class, () -> vetting.vetData("configmap/ops/x", BundleConfigMaps.pack(bundle.directory())));
        }
        assertThat(vetting.vet("configmap/ops/app", ProjectFiles.of("runbooks/app-release")).scenarios()).isGreaterThan(10);
    }
}
