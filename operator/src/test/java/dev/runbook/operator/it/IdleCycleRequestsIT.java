package dev.runbook.operator.it;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.cycle.CycleListener;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.operator.testkit.CountingClient;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import dev.runbook.rules.fact.Primary;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A converged primary costs nothing per cycle: no write and no read. Writes are counted twice — by the
 * API server's own request metrics ({@code apiserver_request_total}) for the primary's kind, which this
 * test gives a group of its own so that nothing else on a shared control plane counts there, and by the
 * operator's client; reads by the operator's client alone, for every request it sends (watches excepted:
 * they stay open), since the server's counters cannot tell the operator's GETs from the garbage
 * collector's. Cycles are made
 * frequent with a 1 s reconcile period. Skipped, with the reason, on the embedded server.
 *
 * <p>Run twice, with two schemas for the primary's conditions: one that declares the per-condition
 * {@code observedGeneration} (as the shipped bundles' CRDs do), which the converged conditions then
 * carry, and one that does not, so that the API server prunes it: the operator learns that from its
 * first write and stops writing the field, rather than writing the status again on every cycle.
 */
@Tag("real-api-server")
@RunbookIT
class IdleCycleRequestsIT {
    /** The primary's condition schema, each under a group no other test uses, so that the server's per-group counters are this run's alone. */
    enum ConditionSchema {
        DECLARES_OBSERVED_GENERATION("idle.perf.runbook.dev", true),
        PRUNES_OBSERVED_GENERATION("idle-pruned.perf.runbook.dev", false);

        final String group;
        final boolean declares;

        ConditionSchema(String group, boolean declares) {
            this.group = group;
            this.declares = declares;
        }
    }

    private static final Path WEB_APP = Path.of("src/test/resources/bundles/web-app");
    private static final Pattern COUNTER = Pattern.compile("^apiserver_request_total\\{([^}]*)} ([0-9.e+]+)$");
    private static final Set<String> REQUEST_VERBS = Set.of("GET", "POST", "PUT", "PATCH", "APPLY", "DELETE");

    @TempDir
    static Path work;

    static TestCluster cluster;

    @TestNamespace("idle")
    String namespace;

    @ParameterizedTest
    @EnumSource(ConditionSchema.class)
    void aConvergedPrimaryCostsNoRequestPerCycle(ConditionSchema schema) throws IOException {
        cluster.requireRealApiServer("the API server's request metrics");
        String group = schema.group;
        cluster.installCrd(ownGroup(WEB_APP.resolve("crds/webapps.test.runbook.dev.yaml"), group, schema.declares));
        CompiledBundle bundle = BundleCompiler.compile(everySecond(BundleLoader.load(WEB_APP), group));
        KubernetesClient admin = cluster.client();

        AtomicInteger cycles = new AtomicInteger();
        AtomicReference<CycleReport> last = new AtomicReference<>();
        CycleListener listener = new CycleListener() {
            @Override
            public void cycleRecorded(Primary primary, CycleReport report) {
                last.set(report);
                cycles.incrementAndGet();
            }
        };
        CountingClient counting = new CountingClient(cluster);
        try (KubernetesClient operatorClient = counting.client();
             RunbookOperator operator = RunbookOperator.builder(operatorClient).bundles(List.of(bundle))
                     .namespaces(Set.of(namespace)).listener(listener).build()) {
            operator.start();
            admin.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName("shop-db")
                    .addToLabels("app.kubernetes.io/instance", "shop").endMetadata().addToStringData("password", "x").build()).create();
            admin.genericKubernetesResources(webApps(group)).inNamespace(namespace).resource(webApp("shop", namespace, group)).create();

            // Converged: a cycle whose every action came out NONE, and the one after it.
            await().atMost(TestCluster.CONVERGE).until(() -> converged(last.get()) && phase(admin, namespace, group).equals("Serving"));
            int settled = cycles.get();
            await().atMost(TestCluster.CONVERGE).until(() -> cycles.get() >= settled + 2 && converged(last.get()));

            GenericKubernetesResource app = admin.genericKubernetesResources(webApps(group)).inNamespace(namespace).withName("shop").get();
            List<Map<String, Object>> conditions = conditions(app);
            assertThat(conditions).extracting(c -> c.get("type")).contains("Ready", "RunbookApplied");
            if (schema.declares) {
                assertThat(conditions).as("every condition the cycles set carries the generation they observed")
                        .allSatisfy(c -> assertThat(((Number) c.get("observedGeneration")).longValue())
                                .isEqualTo(app.getMetadata().getGeneration()));
            } else {
                assertThat(conditions).as("pruned by the API server").allSatisfy(c -> assertThat(c).doesNotContainKey("observedGeneration"));
            }

            Map<String, Double> serverBefore = primaryKindRequests(admin, group);
            counting.drain();
            int from = cycles.get();
            await().atMost(TestCluster.CONVERGE).until(() -> cycles.get() >= from + 4);
            int counted = cycles.get() - from;
            List<String> sent = counting.drain();
            Map<String, Double> serverAfter = primaryKindRequests(admin, group);

            assertThat(converged(last.get())).as("still converged at the end").isTrue();
            assertThat(difference(serverBefore, serverAfter))
                    .as("the API server's count of writes on %s webapps over %d idle cycles", group, counted).isEmpty();
            assertThat(sent).as("the operator's requests over %d idle cycles", counted).isEmpty();

            if (schema.declares) {
                // A new generation: the next cycle's conditions say they were set on it. (A merge patch, not an
                // edit: an edit sends the resourceVersion it read, and fails with 409 if a cycle wrote the
                // status in between.)
                admin.genericKubernetesResources(webApps(group)).inNamespace(namespace).withName("shop")
                        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"greeting\":\"hello\"}}");
                await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
                    GenericKubernetesResource changed = admin.genericKubernetesResources(webApps(group)).inNamespace(namespace).withName("shop").get();
                    assertThat(changed.getMetadata().getGeneration()).isEqualTo(app.getMetadata().getGeneration() + 1);
                    assertThat(conditions(changed)).allSatisfy(c -> assertThat(((Number) c.get("observedGeneration")).longValue())
                            .isEqualTo(changed.getMetadata().getGeneration()));
                });
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> conditions(GenericKubernetesResource app) {
        Object status = app.getAdditionalProperties().get("status");
        Object conditions = status instanceof Map<?, ?> map ? map.get("conditions") : null;
        return conditions instanceof List<?> list ? (List<Map<String, Object>>) list : List.of();
    }

    private static boolean converged(CycleReport report) {
        return report != null && report.failure() == null && !report.applied().isEmpty()
                && report.applied().stream().allMatch(a -> a.outcome().name().equals("NONE"));
    }

    /** Requests on this test's own group, by verb, resource, subresource and code, from /metrics. */
    private static Map<String, Double> primaryKindRequests(KubernetesClient admin, String group) {
        Map<String, Double> counts = new TreeMap<>();
        for (String line : admin.raw("/metrics").split("\n")) {
            Matcher m = COUNTER.matcher(line);
            if (!m.matches() || !m.group(1).contains("group=\"" + group + "\"")) continue;
            Map<String, String> labels = new HashMap<>();
            for (String pair : m.group(1).split(",")) {
                int eq = pair.indexOf('=');
                labels.put(pair.substring(0, eq), pair.substring(eq + 2, pair.length() - 1));
            }
            if (!REQUEST_VERBS.contains(labels.get("verb"))) continue;
            // The server's counters say what was asked, not who asked: the garbage collector GETs an owner to
            // check that it exists, so reads are counted on the operator's own client below, writes here.
            if (labels.get("verb").equals("GET")) continue;
            // A DELETE on a whole namespace's collection is the namespace controller emptying a namespace
            // that another test deleted (it sweeps every kind the server knows, this one included); the
            // operator never deletes a collection, and its own client's count below would show it if it did.
            if (labels.get("verb").equals("DELETE") && "namespace".equals(labels.get("scope"))) continue;
            counts.merge(labels.get("verb") + " " + labels.get("resource") + "/" + labels.get("subresource")
                    + " " + labels.get("code"), Double.parseDouble(m.group(2)), Double::sum);
        }
        return counts;
    }

    private static Map<String, Double> difference(Map<String, Double> before, Map<String, Double> after) {
        Map<String, Double> grew = new TreeMap<>();
        after.forEach((key, value) -> {
            double delta = value - before.getOrDefault(key, 0.0);
            if (delta > 0) grew.put(key, delta);
        });
        return grew;
    }

    private static String phase(KubernetesClient admin, String namespace, String group) {
        GenericKubernetesResource app = admin.genericKubernetesResources(webApps(group)).inNamespace(namespace).withName("shop").get();
        Object status = app == null ? null : app.getAdditionalProperties().get("status");
        return status instanceof Map<?, ?> map ? String.valueOf(map.get("phase")) : "";
    }

    private static ResourceDefinitionContext webApps(String group) {
        return new ResourceDefinitionContext.Builder().withGroup(group).withVersion("v1").withKind("WebApp")
                .withPlural("webapps").withNamespaced(true).build();
    }

    private static GenericKubernetesResource webApp(String name, String namespace, String group) {
        GenericKubernetesResource app = new GenericKubernetesResource();
        app.setApiVersion(group + "/v1");
        app.setKind("WebApp");
        app.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        app.setAdditionalProperty("spec", Map.of("greeting", "hi"));
        return app;
    }

    /**
     * The web-app CRD under {@code group}, with a schema for the conditions (the rest of the status is kept as
     * it comes) that declares their {@code observedGeneration} or not.
     */
    private static Path ownGroup(Path crd, String group, boolean declaresObservedGeneration) throws IOException {
        String status = "            status:\n              type: object\n              x-kubernetes-preserve-unknown-fields: true\n";
        String text = Files.readString(crd);
        assertThat(text).contains(status);
        String conditions = status + """
                              properties:
                                conditions:
                                  type: array
                                  items:
                                    type: object
                                    required: [type, status]
                                    properties:
                                      type: {type: string}
                                      status: {type: string}
                                      reason: {type: string}
                                      message: {type: string}
                                      lastTransitionTime: {type: string, format: date-time}
                """ + (declaresObservedGeneration ? "                      observedGeneration: {type: integer}\n" : "");
        Path copy = work.resolve("webapps." + group + ".yaml");
        Files.writeString(copy, text.replace(status, conditions).replace("test.runbook.dev", group));
        return copy;
    }

    /** The web-app bundle for {@code group}, reconciled every second. */
    private static BundleSource everySecond(BundleSource source, String group) {
        Map<String, String> files = new HashMap<>(source.files());
        files.computeIfPresent("bundle.yaml", (path, text) -> text.replace("test.runbook.dev/v1", group + "/v1")
                .replace("reconcilePeriod: 5m", "reconcilePeriod: 1s"));
        return new BundleSource("web-app, every second", files);
    }
}
