package dev.runbook.cli.it;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.cli.scaffold.NewBundle;
import dev.runbook.cli.scaffold.Scaffold;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.runbook.operator.testkit.Objects.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Part 4 of docs/tutorial.md on an API server: the bundle {@code runbook new} writes, its CRD
 * installed, the operator running it, and the sample Demo created — it converges to phase Ready with
 * its ConfigMap.
 */
@RunbookIT
class TutorialIT {
    static TestCluster cluster;

    KubernetesClient client;
    @TestNamespace("tutorial")
    String namespace;

    @Test
    void theNewBundleRunsAsAnOperator(@TempDir Path work) throws Exception {
        Path bundle = work.resolve("demo");
        Scaffold.write(bundle, NewBundle.of("demo", "demo.example.com/v1alpha1/Demo"));
        cluster.installCrd(bundle.resolve("crds/demos.demo.example.com.yaml"));
        CompiledBundle compiled = BundleCompiler.compile(BundleLoader.load(bundle));

        try (RunbookOperator operator = RunbookOperator.builder(client).bundles(List.of(compiled))
                .namespaces(Set.of(namespace)).build()) {
            operator.start();
            GenericKubernetesResource sample = client.getKubernetesSerialization().unmarshal(
                    Files.readString(bundle.resolve("samples/demo.yaml")), GenericKubernetesResource.class);
            sample.getMetadata().setNamespace(namespace);
            client.resource(sample).create();

            var demos = client.genericKubernetesResources("demo.example.com/v1alpha1", "Demo").inNamespace(namespace);
            await().atMost(TestCluster.CONVERGE).until(() -> client.getKubernetesSerialization().convertValue(
                    demos.withName("example").get(), Map.class), d -> "Ready".equals(at(d, "status.phase")));
            ConfigMap config = client.configMaps().inNamespace(namespace).withName("example-config").get();
            assertThat(config.getData()).containsEntry("message", "hello from example");
        }
    }
}
