package dev.runbook.operator.it;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.testkit.simulation.Simulator;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.testkit.MockControllers;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.runbook.operator.testkit.Objects.at;
import static dev.runbook.operator.testkit.Objects.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The shipped app-release bundle on an API server: a release is migrated and rolled out, a new
 * version goes through its canary to the stable Deployment, and a deleted release runs its cleanup
 * Job before it goes. On the real control plane of testenv/ the Deployment and Job controllers are
 * the real ones and kwok makes pods ready (and Job pods complete); on the embedded mock the engine's
 * simulated controllers stand in, and the test completes the Jobs.
 */
@RunbookIT(crds = "../runbooks/app-release/crds")
class AppReleaseIT {
    static final Path BUNDLE = Path.of("../runbooks/app-release");
    static final Duration RELEASE = Duration.ofSeconds(60);

    static TestCluster cluster;
    static CompiledBundle bundle;

    KubernetesClient client;
    @TestNamespace("apps")
    String namespace;
    RunbookOperator operator;
    MockControllers controllers;

    @BeforeAll
    static void compileBundle() {
        bundle = BundleCompiler.compile(BundleLoader.load(BUNDLE));
    }

    @BeforeEach
    void start() {
        KubeApi api = new KubeApi(client);
        api.register(bundle.spec().primary());
        controllers = new MockControllers(cluster, api, namespace, List.of(bundle.spec().primary().kind(),
                new Kind("v1", "Pod"), new Kind("apps/v1", "Deployment"), new Kind("batch/v1", "Job"),
                new Kind("v1", "Service"), new Kind("v1", "ConfigMap")), Clock.systemUTC());
        operator = RunbookOperator.builder(client).bundles(List.of(bundle)).namespaces(Set.of(namespace)).build();
        operator.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (operator != null) operator.close();
        controllers.close();
    }

    @Test
    @SuppressWarnings("unchecked")
    void aReleaseIsMigratedPromotedThroughItsCanaryAndCleanedUpOnDelete() throws Exception {
        Map<String, Object> release = new org.yaml.snakeyaml.Yaml().load(Files.readString(BUNDLE.resolve("samples/release.yaml")));
        ((Map<String, Object>) release.get("metadata")).put("namespace", namespace);
        ((Map<String, Object>) ((Map<String, Object>) release.get("spec")).get("canary")).put("promoteAfter", "2s");
        releases().resource(client.getKubernetesSerialization().convertValue(release, GenericKubernetesResource.class)).create();

        completeJob("shop-migrate-1-0-0");
        // Each action is its own request: the phase and the condition are awaited together.
        Map<String, Object> available = await().atMost(RELEASE).until(() -> awaitPhase("Available", "1.0.0"),
                r -> "True".equals(at(condition(r, "Ready"), "status")));
        assertThat(condition(available, "Ready")).containsEntry("reason", "StableAvailable");
        assertThat(image("shop")).isEqualTo("registry.example.com/shop:1.0.0");
        assertThat(client.configMaps().inNamespace(namespace).withName("shop-config").get().getData()).containsEntry("LOG_LEVEL", "info");

        releases().withName("shop").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"version\":\"1.1.0\"}}");
        completeJob("shop-migrate-1-1-0");
        await().atMost(RELEASE).until(() -> deployment("shop-canary") != null);
        assertThat(image("shop-canary")).isEqualTo("registry.example.com/shop:1.1.0");
        awaitPhase("Available", "1.1.0");
        await().atMost(RELEASE).until(() -> image("shop").endsWith(":1.1.0") && deployment("shop-canary") == null);
        assertThat(events("CanaryStarted")).isNotEmpty();
        assertThat(events("CanaryPromoted")).isNotEmpty();

        releases().withName("shop").delete();
        completeJob("shop-cleanup");
        await().atMost(RELEASE).until(() -> releases().withName("shop").get() == null);
        assertThat(events("CleanupFinished")).isNotEmpty();
    }

    /** Waits for the Job; on the mock, completes it as the Job controller and the kubelet would. */
    private void completeJob(String name) {
        await().atMost(RELEASE).until(() -> client.batch().v1().jobs().inNamespace(namespace).withName(name).get() != null);
        if (controllers.running()) {
            await().atMost(TestCluster.CONVERGE).ignoreExceptions().until(() -> {
                controllers.simulated().jobSucceeds(Simulator.ref("Job", namespace, name), controllers.view().now());
                return true;
            });
        }
    }

    private Map<String, Object> awaitPhase(String phase, String version) {
        return await().atMost(RELEASE).until(() -> asMap(releases().withName("shop").get()),
                r -> r != null && phase.equals(at(r, "status.phase")) && version.equals(at(r, "status.currentVersion")));
    }

    private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<GenericKubernetesResource,
            io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
            io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>> releases() {
        return client.genericKubernetesResources("apps.runbook.dev/v1alpha1", "AppRelease").inNamespace(namespace);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> asMap(GenericKubernetesResource resource) {
        return resource == null ? null : client.getKubernetesSerialization().convertValue(resource, Map.class);
    }

    private Deployment deployment(String name) {
        return client.apps().deployments().inNamespace(namespace).withName(name).get();
    }

    private String image(String deployment) {
        Deployment found = deployment(deployment);
        return found == null ? "" : found.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
    }

    private List<Event> events(String reason) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> "shop".equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason())).toList();
    }
}
