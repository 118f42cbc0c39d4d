package dev.runbook.operator.it;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * What only a real API server does, and the operator relies on: garbage collection through the owner
 * references it sets, field ownership under server-side apply, and the CRD's schema. Skipped, with the
 * reason, on the embedded server; run against testenv/ (see docs/testing.md) or any cluster.
 */
@Tag("real-api-server")
@RunbookIT(crds = {"src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml", "../runbooks/postgres-cluster/crds"})
class RealApiServerIT {
    static final Path WEB_APP = Path.of("src/test/resources/bundles/web-app");
    static final Path POSTGRES = Path.of("../runbooks/postgres-cluster");
    static final ResourceDefinitionContext WEB_APPS = new ResourceDefinitionContext.Builder()
            .withGroup("test.runbook.dev").withVersion("v1").withKind("WebApp").withPlural("webapps")
            .withNamespaced(true).build();

    static TestCluster cluster;
    static CompiledBundle bundle;

    KubernetesClient client;
    @TestNamespace("real")
    String namespace;
    RunbookOperator operator;

    @BeforeAll
    static void compileBundle() {
        bundle = BundleCompiler.compile(BundleLoader.load(WEB_APP));
    }

    @BeforeEach
    void startOperator() {
        operator = RunbookOperator.builder(client).bundles(List.of(bundle)).namespaces(Set.of(namespace)).build();
        operator.start();
    }

    @AfterEach
    void stopOperator() {
        if (operator != null) operator.close();
    }

    @Test
    void deletingAPrimaryDeletesWhatTheOperatorMadeForIt() {
        cluster.requireRealApiServer("garbage collection through owner references");
        createWebApp("shop");
        await().atMost(TestCluster.CONVERGE).until(() -> configMap("shop-config") != null);

        client.genericKubernetesResources(WEB_APPS).inNamespace(namespace).withName("shop").delete();

        await().atMost(TestCluster.CONVERGE).until(() -> configMap("shop-config") == null);
    }

    @Test
    void theOperatorTakesBackAFieldAnotherManagerAppliedAndOwnsWhatItApplies() {
        cluster.requireRealApiServer("server-side apply and managedFields");
        createWebApp("shop");
        await().atMost(TestCluster.CONVERGE).until(() -> configMap("shop-config") != null);

        ConfigMap intrusion = new ConfigMapBuilder().withNewMetadata().withName("shop-config").withNamespace(namespace).endMetadata()
                .addToData("greeting", "tampered").build();
        client.configMaps().inNamespace(namespace).resource(intrusion).fieldManager("intruder").forceConflicts().serverSideApply();

        // The change of a secondary starts a cycle; its apply (with force) takes the field back.
        await().atMost(TestCluster.CONVERGE).until(() -> "hi".equals(configMap("shop-config").getData().get("greeting")));
        ConfigMap config = configMap("shop-config");
        assertThat(config.getMetadata().getManagedFields()).anySatisfy(entry -> {
            assertThat(entry.getManager()).isEqualTo(bundle.spec().fieldManager());
            assertThat(entry.getOperation()).isEqualTo("Apply");
            assertThat(client.getKubernetesSerialization().asJson(entry.getFieldsV1())).contains("f:greeting");
        });
        assertThat(config.getMetadata().getManagedFields()).filteredOn(entry -> "intruder".equals(entry.getManager()))
                .allSatisfy(entry -> assertThat(client.getKubernetesSerialization().asJson(entry.getFieldsV1()))
                        .as("the field went back to the operator").doesNotContain("f:greeting"));
    }

    @Test
    void anInvalidPostgresClusterIsRefusedByTheCrdSchemaWithTheServersMessage() throws IOException {
        cluster.requireRealApiServer("CRD schema validation");
        GenericKubernetesResource sample;
        try (InputStream in = Files.newInputStream(POSTGRES.resolve("samples/cluster.yaml"))) {
            sample = client.getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
        }
        sample.getMetadata().setNamespace(namespace);
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) sample.getAdditionalProperties().get("spec");
        spec.put("instances", 12);
        spec.put("failoverDelay", "soon");

        KubernetesClientException refused = catchThrowableOfType(KubernetesClientException.class, () -> client
                .genericKubernetesResources("postgres.runbook.dev/v1alpha1", "PostgresCluster").inNamespace(namespace)
                .resource(sample).create());

        assertThat(refused.getCode()).isEqualTo(422);
        assertThat(refused.getMessage()).contains("spec.instances", "should be less than or equal to 9")
                .contains("spec.failoverDelay", "should match");
    }

    private void createWebApp(String name) {
        GenericKubernetesResource resource = client.getKubernetesSerialization().convertValue(Map.of(
                "apiVersion", "test.runbook.dev/v1", "kind", "WebApp",
                "metadata", Map.of("name", name, "namespace", namespace),
                "spec", Map.of("greeting", "hi")), GenericKubernetesResource.class);
        client.genericKubernetesResources(WEB_APPS).inNamespace(namespace).resource(resource).create();
    }

    private ConfigMap configMap(String name) {
        return client.configMaps().inNamespace(namespace).withName(name).get();
    }
}
