package dev.runbook.operator.record;

import dev.runbook.operator.kube.Maps;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class WrittenPrimariesTest {
    static Map<String, Object> shop(String resourceVersion, String phase) {
        return Map.of("apiVersion", "test.runbook.dev/v1", "kind", "WebApp",
                "metadata", Map.of("name", "shop", "namespace", "demo", "resourceVersion", resourceVersion,
                        "managedFields", List.of(Map.of("manager", "runbook-web-app"), Map.of("manager", "kubectl"))),
                "status", Map.of("phase", phase));
    }

    @Test
    void aCopyTheWriteReplacedGivesWayToTheWrite() {
        WrittenPrimaries written = new WrittenPrimaries("runbook-web-app");
        assertThat(written.freshest(shop("1", "Pending"))).isEqualTo(shop("1", "Pending"));

        written.wrote(Maps.refOf(shop("1", "Pending")), "1", shop("2", "Serving"));

        Map<String, Object> seen = written.freshest(shop("1", "Pending"));
        assertThat(Maps.resourceVersion(seen)).isEqualTo("2");
        assertThat(Maps.map(seen, "status")).containsEntry("phase", "Serving");
        assertThat((List<Object>) Maps.map(seen, "metadata").get("managedFields")).as("as an informer keeps them")
                .containsExactly(Map.of("manager", "runbook-web-app"));
    }

    @Test
    void writesOnTheWrittenCopyKeepEveryVersionTheyReplaced() {
        WrittenPrimaries written = new WrittenPrimaries("runbook-web-app");
        written.wrote(Maps.refOf(shop("1", "Pending")), "1", shop("2", "Starting"));
        written.wrote(Maps.refOf(shop("2", "Starting")), "2", shop("3", "Serving"));

        assertThat(Maps.resourceVersion(written.freshest(shop("1", "Pending")))).isEqualTo("3");
        assertThat(Maps.resourceVersion(written.freshest(shop("2", "Starting")))).isEqualTo("3");
    }

    @Test
    void anyOtherVersionIsTrustedAndTheWriteForgotten() {
        WrittenPrimaries written = new WrittenPrimaries("runbook-web-app");
        written.wrote(Maps.refOf(shop("1", "Pending")), "1", shop("2", "Serving"));

        assertThat(written.freshest(shop("2", "Serving"))).as("the informer caught up").isEqualTo(shop("2", "Serving"));
        assertThat(written.size()).isZero();

        written.wrote(Maps.refOf(shop("2", "Serving")), "2", shop("3", "Degraded"));
        assertThat(written.freshest(shop("7", "Serving"))).as("someone else wrote since").isEqualTo(shop("7", "Serving"));
        assertThat(written.size()).isZero();
    }
}
