package dev.runbook.operator.it;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.testkit.Cycles;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.SteppedClock;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.runbook.operator.testkit.Objects.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Cleanup rules end to end on the test bundle {@code archive} (src/test/resources/bundles/archive): the
 * operator holds a deleted Archive with its finalizer while the rules write a last export, releases it
 * when the rules say so, and releases it anyway, with a Warning event, once the cleanup deadline has passed.
 */
@RunbookIT(crds = "src/test/resources/bundles/archive/crds/archives.test.runbook.dev.yaml")
class CleanupIT {
    static final Path BUNDLE = Path.of("src/test/resources/bundles/archive");
    static final String FINALIZER = "runbook.dev/archive";

    static CompiledBundle bundle;

    KubernetesClient client;
    @TestNamespace("cleanup")
    String namespace;
    SteppedClock clock;
    RunbookOperator operator;

    @BeforeAll
    static void compileBundle() {
        bundle = BundleCompiler.compile(BundleLoader.load(BUNDLE));
    }

    @BeforeEach
    void startOperator() {
        clock = new SteppedClock();
        operator = RunbookOperator.builder(client).bundles(List.of(bundle)).namespaces(Set.of(namespace)).clock(clock)
                .listener(new Cycles()).build();
        operator.start();
    }

    @AfterEach
    void stopOperator() {
        if (operator != null) operator.close();
    }

    @Test
    void aDeletedArchiveWaitsForItsCleanupAndGoesWhenTheRulesReleaseIt() {
        createArchive("logs");
        await().atMost(TestCluster.CONVERGE).until(() -> archive("logs"),
                a -> a != null && a.getMetadata().getFinalizers().contains(FINALIZER)
                        && "Stored".equals(at(client.getKubernetesSerialization().convertValue(a, Map.class), "status.phase")));

        archives().withName("logs").delete();

        ConfigMap export = await().atMost(TestCluster.CONVERGE).until(() -> configMap("logs-export"), c -> c != null);
        assertThat(export.getData()).containsEntry("archive", "logs");
        GenericKubernetesResource held = archive("logs");
        assertThat(held).as("held by the finalizer while the export is not done").isNotNull();
        assertThat(held.getMetadata().getDeletionTimestamp()).isNotNull();
        assertThat(held.getMetadata().getFinalizers()).contains(FINALIZER);

        client.configMaps().inNamespace(namespace).withName("logs-export")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"done\":\"true\"}}");

        await().atMost(TestCluster.CONVERGE).until(() -> archive("logs") == null);
        assertThat(events("logs", "CleanupDeadlineExceeded")).isEmpty();
    }

    @Test
    void pastTheDeadlineTheOperatorReleasesTheArchiveWithAWarning() {
        createArchive("stuck");
        await().atMost(TestCluster.CONVERGE).until(() -> archive("stuck"),
                a -> a != null && a.getMetadata().getFinalizers().contains(FINALIZER));
        archives().withName("stuck").delete();
        await().atMost(TestCluster.CONVERGE).until(() -> configMap("stuck-export"), c -> c != null);
        assertThat(archive("stuck")).isNotNull();

        // Nobody marks the export done; the clock passes the bundle's ten-minute deadline.
        clock.advance(Duration.ofMinutes(11));

        await().atMost(TestCluster.CONVERGE).until(() -> archive("stuck") == null);
        assertThat(events("stuck", "CleanupDeadlineExceeded")).singleElement().satisfies(e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getMessage()).contains("cleanup did not finish within 10m", FINALIZER);
        });
    }

    private void createArchive(String name) {
        archives().resource(new GenericKubernetesResource() {{
            setApiVersion("test.runbook.dev/v1");
            setKind("Archive");
            setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
            setAdditionalProperty("spec", Map.of());
        }}).create();
    }

    private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<GenericKubernetesResource,
            io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
            io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>> archives() {
        return client.genericKubernetesResources("test.runbook.dev/v1", "Archive").inNamespace(namespace);
    }

    private GenericKubernetesResource archive(String name) {
        return archives().withName(name).get();
    }

    private ConfigMap configMap(String name) {
        return client.configMaps().inNamespace(namespace).withName(name).get();
    }

    private List<Event> events(String name, String reason) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> name.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason())).toList();
    }
}
