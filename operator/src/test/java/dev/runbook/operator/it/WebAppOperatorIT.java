package dev.runbook.operator.it;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.apply.Outcome;
import dev.runbook.operator.error.ConflictRetry;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.cycle.CycleListener;
import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.error.Failure;
import dev.runbook.operator.error.Reasons;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.operator.testkit.Cycles;
import dev.runbook.operator.testkit.MergePatches;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static dev.runbook.operator.testkit.Objects.at;
import static dev.runbook.operator.testkit.Objects.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The operator end to end on the test bundle {@code web-app} (src/test/resources/bundles/web-app):
 * a WebApp gets a ConfigMap from a template, a phase and a Ready condition.
 */
@RunbookIT(crds = "src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml")
class WebAppOperatorIT {
    static final Path BUNDLE = Path.of("src/test/resources/bundles/web-app");
    static final ResourceDefinitionContext WEB_APPS = new ResourceDefinitionContext.Builder()
            .withGroup("test.runbook.dev").withVersion("v1").withKind("WebApp").withPlural("webapps")
            .withNamespaced(true).build();

    static TestCluster cluster;
    static CompiledBundle bundle;

    KubernetesClient client;
    @TestNamespace("web")
    String namespace;
    Cycles cycles;
    RunbookOperator operator;

    @BeforeAll
    static void compileBundle() {
        bundle = BundleCompiler.compile(BundleLoader.load(BUNDLE));
    }

    @BeforeEach
    void startOperator() {
        cycles = new Cycles();
        operator = RunbookOperator.builder(client).bundles(List.of(bundle)).namespaces(Set.of(namespace))
                .listener(cycles).build();
        operator.start();
    }

    @AfterEach
    void stopOperator() {
        if (operator != null) operator.close();
    }

    @Test
    void aWebAppConvergesWithItsConfigurationOwnedAndItsStatusWritten() {
        Map<String, Object> app = create("shop", Map.of("greeting", "hi"), Map.of());

        ConfigMap config = await().atMost(TestCluster.CONVERGE).until(() -> configMap("shop-config"), c -> c != null);
        assertThat(config.getData()).containsEntry("greeting", "hi");
        assertThat(config.getMetadata().getLabels()).containsEntry("app.kubernetes.io/instance", "shop");
        assertThat(config.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
            assertThat(owner.getKind()).isEqualTo("WebApp");
            assertThat(owner.getName()).isEqualTo("shop");
            assertThat(owner.getUid()).isEqualTo(at(app, "metadata.uid"));
            assertThat(owner.getController()).isTrue();
        });

        Map<String, Object> converged = awaitConverged("shop");
        assertThat((String) at(converged, "status.phase")).isEqualTo("Serving");
        assertThat(condition(converged, "Ready")).containsEntry("status", "True").containsEntry("reason", "ConfigPresent");
        assertThat(condition(converged, "RunbookApplied")).containsEntry("status", "True").containsEntry("reason", "Applied");
        assertThat(((Number) at(converged, "status.observedGeneration")).longValue()).isEqualTo(1L);
        assertThat((String) at(converged, "status.bundleVersion")).isEqualTo(bundle.version());
        assertThat((String) at(converged, "status.lastCycle.bundle")).isEqualTo("web-app");
        assertThat((List<Object>) at(converged, "status.lastCycle.fired")).contains("Keep the configuration", "Ready when the configuration is there");

        // One event for the cycle's changes, each with its outcome and the rules that asked for it (ChangesEvent).
        assertThat(events("shop")).anySatisfy(e -> {
            assertThat(e.getType()).isEqualTo("Normal");
            assertThat(e.getReason()).isIn("Created", "Applied");
            assertThat(e.getMessage()).contains("apply ConfigMap " + namespace + "/shop-config (created)",
                    "asked by rule 'Keep the configuration'");
        });
    }

    @Test
    void aCycleOnAConvergedWebAppChangesNothing() {
        create("shop", Map.of("greeting", "hi"), Map.of());
        awaitConverged("shop");
        String configVersion = configMap("shop-config").getMetadata().getResourceVersion();
        int eventCount = events("shop").size();
        int cyclesBefore = cycles.count(namespace, "shop");

        // An annotation change starts a cycle (it does not move the generation).
        String appVersion = annotate("shop", "test.runbook.dev/touched", "1");
        await().atMost(TestCluster.CONVERGE).until(() -> cycles.count(namespace, "shop") > cyclesBefore);

        var report = cycles.last(namespace, "shop");
        assertThat(report.failure()).isNull();
        assertThat(report.applied()).isNotEmpty().allSatisfy(a -> assertThat(a.outcome()).isEqualTo(Outcome.NONE));
        assertThat(configMap("shop-config").getMetadata().getResourceVersion()).isEqualTo(configVersion);
        assertThat((String) at(webApp("shop"), "metadata.resourceVersion")).isEqualTo(appVersion);
        assertThat(events("shop")).hasSize(eventCount);
    }

    @Test
    void aPlanConflictIsShownInTheConditionAndAWarningEventAndNothingIsApplied() {
        create("shop", Map.of("greeting", "hi"), Map.of());
        awaitConverged("shop");

        patchSpec("shop", Map.of("maintenance", true, "greeting", "changed"));

        Map<String, Object> refused = await().atMost(TestCluster.CONVERGE).until(() -> webApp("shop"),
                a -> "PlanRefused".equals(at(condition(a, "RunbookApplied"), "reason")));
        assertThat(condition(refused, "RunbookApplied")).containsEntry("status", "False");
        assertThat((String) at(condition(refused, "RunbookApplied"), "message"))
                .contains("CONFLICT", "Maintenance phase when asked", "Ready when the configuration is there");
        assertThat((String) at(refused, "status.phase")).isEqualTo("Serving");
        assertThat(configMap("shop-config").getData()).containsEntry("greeting", "hi");
        assertThat((List<Map<String, Object>>) at(refused, "status.lastCycle.actions"))
                .allSatisfy(a -> assertThat(a).containsEntry("outcome", "REFUSED"));
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(events("shop")).anySatisfy(e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getReason()).isEqualTo("PlanRefused");
            assertThat(e.getMessage()).contains("Maintenance phase when asked", "Ready when the configuration is there");
        }));
    }

    @Test
    void observeModeAppliesNothingAndRecordsThePlan() {
        create("shop", Map.of("greeting", "hi"), Map.of("runbook.dev/mode", "observe"));

        Map<String, Object> observed = await().atMost(TestCluster.CONVERGE).until(() -> webApp("shop"),
                a -> condition(a, "RunbookApplied") != null);
        assertThat(condition(observed, "RunbookApplied")).containsEntry("status", "False").containsEntry("reason", "Observing");
        assertThat((String) at(observed, "status.lastCycle.mode")).isEqualTo("observe");
        assertThat((List<Map<String, Object>>) at(observed, "status.lastCycle.actions"))
                .isNotEmpty()
                .allSatisfy(a -> assertThat(a).containsEntry("outcome", "PLANNED"))
                .anySatisfy(a -> assertThat(a).containsEntry("action", "apply ConfigMap " + namespace + "/shop-config"));
        assertThat(configMap("shop-config")).isNull();
        assertThat(condition(observed, "Ready")).isNull();
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(events("shop")).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("PlanObserved");
            assertThat(e.getMessage()).contains("apply ConfigMap " + namespace + "/shop-config");
        }));
    }

    @Test
    void thePauseAnnotationStopsEveryActionUntilItIsRemoved() {
        create("shop", Map.of("greeting", "hi"), Map.of());
        awaitConverged("shop");

        annotate("shop", "runbook.dev/paused", "true");
        await().atMost(TestCluster.CONVERGE).until(() -> webApp("shop"),
                a -> "Paused".equals(at(condition(a, "RunbookApplied"), "reason")));
        int cyclesBefore = cycles.count(namespace, "shop");
        client.configMaps().inNamespace(namespace).withName("shop-config").delete();
        await().atMost(TestCluster.CONVERGE).until(() -> cycles.count(namespace, "shop") > cyclesBefore);
        assertThat(cycles.last(namespace, "shop").applied()).isEmpty();
        assertThat(configMap("shop-config")).isNull();

        annotate("shop", "runbook.dev/paused", null);
        await().atMost(TestCluster.CONVERGE).until(() -> configMap("shop-config"), c -> c != null);
        awaitConverged("shop");
    }

    @Test
    void aRuleThatFailsIsShownWithItsName() {
        create("shop", Map.of("replicas", "many"), Map.of());

        Map<String, Object> failed = await().atMost(TestCluster.CONVERGE).until(() -> webApp("shop"),
                a -> "RuleFailed".equals(at(condition(a, "RunbookApplied"), "reason")));
        assertThat((String) at(condition(failed, "RunbookApplied"), "message")).contains("Replicas are recorded");
        assertThat(configMap("shop-config")).isNull();
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(events("shop")).anySatisfy(e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getReason()).isEqualTo("RuleFailed");
            assertThat(e.getMessage()).contains("Replicas are recorded");
        }));
    }

    @Test
    void objectsMappedByLabelsAreObservedAndLabelled() {
        create("shop", Map.of("greeting", "hi"), Map.of());
        awaitConverged("shop");

        client.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName("shop-db")
                .addToLabels("app.kubernetes.io/instance", "shop").endMetadata()
                .addToStringData("password", "s3cret").build()).create();
        client.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName("other-db")
                .addToLabels("app.kubernetes.io/instance", "other").endMetadata().build()).create();

        Map<String, Object> app = await().atMost(TestCluster.CONVERGE).until(() -> webApp("shop"),
                a -> Integer.valueOf(1).equals(at(a, "status.credentials")));
        assertThat(condition(app, "RunbookApplied")).containsEntry("status", "True");
        await().atMost(TestCluster.CONVERGE).until(() -> client.secrets().inNamespace(namespace).withName("shop-db").get()
                .getMetadata().getLabels(), labels -> "shop".equals(labels.get("test.runbook.dev/used-by")));
        assertThat(client.secrets().inNamespace(namespace).withName("other-db").get().getMetadata().getLabels())
                .doesNotContainKey("test.runbook.dev/used-by");
    }

    @Test
    void aTemporaryFailureIsRecordedAndRetriedWithBackoff() {
        assumeTrue(cluster.isMock(), "409s are injected through the mock server");
        // The first status writes meet a conflict each time: the cycle gives up, JOSDK retries it.
        cluster.failNext("PATCH", "/apis/test.runbook.dev/v1/namespaces/" + namespace
                + "/webapps/shop/status?fieldManager=runbook-web-app", 409, ConflictRetry.DEFAULT_ATTEMPTS);
        create("shop", Map.of("greeting", "hi"), Map.of());

        awaitConverged("shop");
        assertThat(cycles.all(namespace, "shop")).first().satisfies(first -> {
            assertThat(first.failure().kind()).isEqualTo(Failure.Kind.TEMPORARY);
            assertThat(first.failure().reason()).isEqualTo(Reasons.CONFLICT);
            assertThat(first.failure().message()).contains("setCondition WebApp " + namespace + "/shop Ready");
        });
        assertThat(events("shop")).anySatisfy(e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getReason()).isEqualTo(Reasons.CONFLICT);
        });
    }

    // ---- helpers ---------------------------------------------------------------------------------

    /**
     * Waits until a cycle found nothing left to change (its report says so: {@code status.lastCycle}
     * keeps the last cycle that changed something) and the condition is True.
     */
    @Test
    void theReconcileThreadsAreTheThreadsThatRunCycles() {
        operator.close();
        Set<Long> threads = ConcurrentHashMap.newKeySet();
        CycleListener recordingThreads = (primary, report) -> {
            threads.add(Thread.currentThread().getId());
            cycles.cycleRecorded(primary, report);
        };
        List<String> apps = List.of("a", "b", "c", "d");

        // One thread: four WebApps created at once still converge, every cycle on that one thread.
        operator = RunbookOperator.builder(client).bundles(List.of(bundle)).namespaces(Set.of(namespace))
                .listener(recordingThreads).reconcileThreads(1).build();
        operator.start();
        apps.forEach(name -> create(name, Map.of("greeting", name), Map.of()));
        apps.forEach(this::awaitConverged);
        assertThat(threads).hasSize(1);

        // Three: the four primaries' first cycles after a start are handed to three threads.
        operator.close();
        threads.clear();
        operator = RunbookOperator.builder(client).bundles(List.of(bundle)).namespaces(Set.of(namespace))
                .listener(recordingThreads).reconcileThreads(3).build();
        operator.start();
        await().atMost(TestCluster.CONVERGE).until(() -> threads.size() == 3);
    }

    @Test
    void noReconcileThreadIsRefused() {
        assertThatThrownBy(() -> RunbookOperator.builder(client).bundles(List.of(bundle))
                .namespaces(Set.of(namespace)).reconcileThreads(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("reconcile threads 0: give at least 1");
    }

    private Map<String, Object> awaitConverged(String name) {
        return await().atMost(TestCluster.CONVERGE).until(() -> webApp(name), a -> {
            CycleReport last = cycles.last(namespace, name);
            return last != null && last.settled() && "True".equals(at(condition(a, "RunbookApplied"), "status"));
        });
    }

    private Map<String, Object> create(String name, Map<String, Object> spec, Map<String, String> annotations) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", name);
        metadata.put("namespace", namespace);
        if (!annotations.isEmpty()) metadata.put("annotations", annotations);
        Map<String, Object> object = Map.of("apiVersion", "test.runbook.dev/v1", "kind", "WebApp",
                "metadata", metadata, "spec", spec);
        GenericKubernetesResource resource = client.getKubernetesSerialization().convertValue(object, GenericKubernetesResource.class);
        return toMap(client.genericKubernetesResources(WEB_APPS).inNamespace(namespace).resource(resource).create());
    }

    private Map<String, Object> webApp(String name) {
        GenericKubernetesResource app = client.genericKubernetesResources(WEB_APPS).inNamespace(namespace).withName(name).get();
        return app == null ? null : toMap(app);
    }

    /** Sets (or, with null, removes) an annotation; returns the resourceVersion after. */
    private String annotate(String name, String key, String value) {
        Map<String, Object> annotations = new LinkedHashMap<>();
        annotations.put(key, value);
        return mergePatch(name, Map.of("metadata", Map.of("annotations", annotations)));
    }

    private void patchSpec(String name, Map<String, Object> spec) {
        mergePatch(name, Map.of("spec", spec));
    }

    private String mergePatch(String name, Map<String, Object> patch) {
        return MergePatches.merge(client, client.genericKubernetesResources(WEB_APPS).inNamespace(namespace).withName(name), patch)
                .getMetadata().getResourceVersion();
    }

    private ConfigMap configMap(String name) {
        return client.configMaps().inNamespace(namespace).withName(name).get();
    }

    private List<Event> events(String involvedName) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> involvedName.equals(e.getInvolvedObject().getName()))
                .toList();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> toMap(GenericKubernetesResource resource) {
        return client.getKubernetesSerialization().convertValue(resource, Map.class);
    }
}
