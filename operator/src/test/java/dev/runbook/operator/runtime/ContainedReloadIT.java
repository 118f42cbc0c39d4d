package dev.runbook.operator.runtime;

import dev.runbook.operator.metrics.OperatorEndpoints;
import dev.runbook.operator.metrics.OperatorMetrics;
import dev.runbook.operator.reload.BundleConfigMaps;
import dev.runbook.operator.testkit.Cycles;
import dev.runbook.operator.testkit.GreeterBundles;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.runbook.operator.testkit.Objects.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Hostile bundles shipped as ConfigMaps to a running operator ({@link OperatorRuntime}, as {@code runbook
 * run} builds it, with its HTTP endpoints), through the real reload path: a rule that never ends, one
 * that stops the JVM, one that runs a process. Each is refused with an event naming the rule or the
 * file, line and column, and the limit; the last good bundle keeps reconciling; the one reload thread
 * goes on to the ConfigMaps shipped after it; the probes say the operator is well, which it is.
 */
@RunbookIT(crds = {"src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml",
        "src/test/resources/bundles/greeter/crds/greeters.test.runbook.dev.yaml"})
class ContainedReloadIT {
    static final String CONFIGMAP = "runbook-bundle-greeter";
    static final ResourceDefinitionContext WEB_APPS = GreeterBundles.WEB_APPS;
    static final ResourceDefinitionContext GREETERS = GreeterBundles.GREETERS;

    @TempDir
    Path work;

    KubernetesClient client;
    @TestNamespace("system")
    String system;
    @TestNamespace("apps")
    String apps;

    final HttpClient http = HttpClient.newHttpClient();
    OperatorMetrics metrics;
    OperatorRuntime runtime;
    OperatorEndpoints endpoints;

    @BeforeEach
    void startOperator() throws IOException {
        metrics = OperatorMetrics.create();
        runtime = new OperatorRuntime(client, new OperatorRuntime.Settings(List.of(), Set.of(apps), system, null),
                Clock.systemUTC(), metrics, new Cycles());
        endpoints = OperatorEndpoints.start(new InetSocketAddress("127.0.0.1", 0), metrics::scrape,
                runtime::notAlive, runtime::notReady);
        runtime.start();
        ship(CONFIGMAP, GreeterBundles.greeter(work, "good", "hello"));
        createApp(WEB_APPS, "shop");
        awaitStatus(WEB_APPS, "shop", "greeting", "hello");
    }

    @AfterEach
    void stopOperator() {
        if (endpoints != null) endpoints.close();
        if (runtime != null) runtime.close();
    }

    @Test
    void aRuleThatNeverEndsIsRefusedAndTheReloadThreadGoesOnToTheNextConfigMap() throws Exception {
        Path looping = GreeterBundles.greeter(work, "looping", "hello");
        GreeterBundles.edit(looping.resolve("rules/greet.drl"), "then\n", "then\n    if ($app != null) { while (true) { } }\n");
        ship(CONFIGMAP, looping);
        // Queued behind the looping bundle on the one reload thread: a good bundle for another kind.
        Path next = GreeterBundles.asGreeterKind(GreeterBundles.renamed(GreeterBundles.greeter(work, "next", "hi"), "greeter-next"));
        ship("runbook-bundle-next", next);

        await().atMost(TestCluster.CONVERGE).until(() -> refusals(CONFIGMAP).size() == 1);
        assertThat(refusals(CONFIGMAP).get(0).getMessage())
                .contains("refused: rule 'Greet hello' exceeded its deadline", "the operator's cycle deadline",
                        "the previous version keeps running: bundle greeter@");
        createApp(GREETERS, "lobby");
        awaitStatus(GREETERS, "lobby", "greeting", "hi");

        // The last good bundle still decides: a change to the app runs a cycle on it.
        patchCounter("shop", "7");
        awaitStatus(WEB_APPS, "shop", "seen", "7");
        assertThat((String) at(get(WEB_APPS, "shop"), "status.greeting")).isEqualTo("hello");
        assertThat(metricsText()).contains("runbook_bundle_reloads_total{bundle=\"greeter\",result=\"refused\"} 1.0");
        assertHealthy();
    }

    @Test
    void aRuleThatStopsTheJvmOrRunsAProcessIsRefusedBeforeItRunsAndLaterBundlesStillLoad() throws Exception {
        Path exit = GreeterBundles.greeter(work, "exit", "hello");
        GreeterBundles.edit(exit.resolve("rules/greet.drl"), "then\n", "then\n    System.exit(0);\n");
        ship(CONFIGMAP, exit);
        await().atMost(TestCluster.CONVERGE).until(() -> refusals(CONFIGMAP).size() == 1);
        assertThat(refusals(CONFIGMAP).get(0).getMessage())
                .contains("rules/greet.drl:10:", "java.lang.System.exit is not allowed in rules",
                        "the previous version keeps running: bundle greeter@");

        Path exec = GreeterBundles.greeter(work, "exec", "hello");
        GreeterBundles.edit(exec.resolve("rules/greet.drl"), "then\n",
                "then\n    Runtime.getRuntime().exec(new String[] {\"touch\", \"/tmp/runbook-contained-reload\"});\n");
        ship(CONFIGMAP, exec);
        await().atMost(TestCluster.CONVERGE).until(() -> refusals(CONFIGMAP).size() == 2);
        assertThat(refusals(CONFIGMAP)).anySatisfy(e -> assertThat(e.getMessage())
                .contains("rules/greet.drl:10:", "java.lang.Runtime.getRuntime is not allowed in rules"));
        assertThat(Path.of("/tmp/runbook-contained-reload")).doesNotExist();

        // The operator is still here, and the next good bundle is accepted and runs.
        ship(CONFIGMAP, GreeterBundles.greeter(work, "better", "bonjour"));
        awaitStatus(WEB_APPS, "shop", "greeting", "bonjour");
        assertThat(metricsText()).contains("runbook_bundle_reloads_total{bundle=\"greeter\",result=\"refused\"} 2.0");
        assertHealthy();
    }

    // --- helpers ---

    /** Liveness and readiness are 200: the refusals took their deadline at most, nothing is stuck or overrunning. */
    private void assertHealthy() throws Exception {
        HttpResponse<String> live = get("/healthz");
        HttpResponse<String> ready = get("/readyz");
        assertThat(live.statusCode()).as(live.body()).isEqualTo(200);
        assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
        assertThat(runtime.notAlive()).isEmpty();
        assertThat(runtime.notReady()).isEmpty();
    }

    private List<Event> refusals(String configMap) {
        return client.v1().events().inNamespace(system).list().getItems().stream()
                .filter(e -> configMap.equals(e.getInvolvedObject().getName()) && "BundleRefused".equals(e.getReason()))
                .peek(e -> assertThat(e.getType()).isEqualTo("Warning"))
                .toList();
    }

    private void ship(String name, Path bundle) {
        client.configMaps().inNamespace(system).resource(new ConfigMapBuilder()
                .withNewMetadata().withName(name).withNamespace(system).addToLabels(BundleConfigMaps.LABEL, "greeter").endMetadata()
                .withData(BundleConfigMaps.pack(bundle)).build()).createOr(existing -> existing.update());
    }

    private void createApp(ResourceDefinitionContext kind, String name) {
        GenericKubernetesResource resource = client.getKubernetesSerialization().convertValue(Map.of(
                "apiVersion", "test.runbook.dev/v1", "kind", kind.getKind(),
                "metadata", Map.of("name", name, "namespace", apps),
                "spec", Map.of("counter", "0")), GenericKubernetesResource.class);
        client.genericKubernetesResources(kind).inNamespace(apps).resource(resource).create();
    }

    private void patchCounter(String name, String counter) {
        String json = client.getKubernetesSerialization().asJson(Map.of("spec", Map.of("counter", counter)));
        client.genericKubernetesResources(WEB_APPS).inNamespace(apps).withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), json);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> get(ResourceDefinitionContext kind, String name) {
        GenericKubernetesResource resource = client.genericKubernetesResources(kind).inNamespace(apps).withName(name).get();
        return resource == null ? Map.of() : client.getKubernetesSerialization().convertValue(resource, Map.class);
    }

    private void awaitStatus(ResourceDefinitionContext kind, String name, String field, String value) {
        await().atMost(TestCluster.CONVERGE).until(() -> value.equals(at(get(kind, name), "status." + field)));
    }

    private String metricsText() throws Exception {
        return get("/metrics").body();
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoints.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
