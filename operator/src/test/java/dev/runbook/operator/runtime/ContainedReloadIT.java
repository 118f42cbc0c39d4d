package dev.runbook.operator.runtime;

import dev.runbook.engine.containment.ContainmentLimits;
import dev.runbook.operator.metrics.OperatorEndpoints;
import dev.runbook.operator.metrics.OperatorMetrics;
import dev.runbook.operator.testkit.Cycles;
import dev.runbook.operator.testkit.GreeterApps;
import dev.runbook.operator.testkit.GreeterBundles;
import dev.runbook.operator.testkit.ShippedBundles;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import dev.runbook.operator.testkit.NeedsSandbox;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
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
@NeedsSandbox
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
    ShippedBundles shipped;
    GreeterApps greeted;

    @BeforeEach
    void startOperator() throws IOException {
        shipped = new ShippedBundles(client, system);
        greeted = new GreeterApps(client, apps);
        metrics = OperatorMetrics.create();
        runtime = new OperatorRuntime(client, new OperatorRuntime.Settings(List.of(), Set.of(apps), system, null),
                Clock.systemUTC(), metrics, new Cycles());
        endpoints = OperatorEndpoints.start(new InetSocketAddress("127.0.0.1", 0), metrics::scrape,
                runtime::notAlive, runtime::notReady);
        runtime.start();
        shipped.ship(CONFIGMAP, GreeterBundles.greeter(work, "good", "hello"));
        greeted.create(WEB_APPS, "shop");
        greeted.awaitStatus(WEB_APPS, "shop", "greeting", "hello");
    }

    @AfterEach
    void stopOperator() {
        if (endpoints != null) endpoints.close();
        if (runtime != null) runtime.close();
    }

    @Test
    void aRuleThatNeverEndsIsRefusedAndTheReloadThreadGoesOnToTheNextConfigMap() throws Exception {
        // The rule loops until the cycle deadline stops it, and the deadline counts the thread's CPU time:
        // the default 5 s of it took over a minute of wall time at a load of 35 on two cores. A 1 s
        // deadline keeps the test about what happens at the deadline, not about how busy the machine is.
        String deadline = System.setProperty(ContainmentLimits.CYCLE_PROPERTY, "1s");
        try {
            aLoopingBundleIsRefusedAndTheNextOneLoads();
        } finally {
            if (deadline == null) System.clearProperty(ContainmentLimits.CYCLE_PROPERTY);
            else System.setProperty(ContainmentLimits.CYCLE_PROPERTY, deadline);
        }
    }

    private void aLoopingBundleIsRefusedAndTheNextOneLoads() throws Exception {
        Path looping = GreeterBundles.greeter(work, "looping", "hello");
        GreeterBundles.edit(looping.resolve("rules/greet.drl"), "then\n", "then\n    if ($app != null) { while (true) { } }\n");
        shipped.ship(CONFIGMAP, looping);
        // Queued behind the looping bundle on the one reload thread: a good bundle for another kind.
        Path next = GreeterBundles.asGreeterKind(GreeterBundles.renamed(GreeterBundles.greeter(work, "next", "hi"), "greeter-next"));
        shipped.ship("runbook-bundle-next", next);

        await().atMost(TestCluster.CONVERGE).until(() -> refusals(CONFIGMAP).size() == 1);
        assertThat(refusals(CONFIGMAP).get(0).getMessage())
                .contains("refused: rule 'Greet hello' exceeded its deadline", "the operator's cycle deadline",
                        "the previous version keeps running: bundle greeter@");
        greeted.create(GREETERS, "lobby");
        greeted.awaitStatus(GREETERS, "lobby", "greeting", "hi");

        // The last good bundle still decides: a change to the app runs a cycle on it.
        greeted.patchCounter(WEB_APPS, "shop", "7");
        greeted.awaitStatus(WEB_APPS, "shop", "seen", "7");
        assertThat((String) at(greeted.get(WEB_APPS, "shop"), "status.greeting")).isEqualTo("hello");
        assertThat(metricsText()).contains("runbook_bundle_reloads_total{bundle=\"greeter\",result=\"refused\"} 1.0");
        assertHealthy();
    }

    @Test
    void aRuleThatStopsTheJvmOrRunsAProcessIsRefusedBeforeItRunsAndLaterBundlesStillLoad() throws Exception {
        Path exit = GreeterBundles.greeter(work, "exit", "hello");
        GreeterBundles.edit(exit.resolve("rules/greet.drl"), "then\n", "then\n    System.exit(0);\n");
        shipped.ship(CONFIGMAP, exit);
        await().atMost(TestCluster.CONVERGE).until(() -> refusals(CONFIGMAP).size() == 1);
        assertThat(refusals(CONFIGMAP).get(0).getMessage())
                .contains("rules/greet.drl:10:", "java.lang.System.exit is not allowed in rules",
                        "the previous version keeps running: bundle greeter@");

        Path exec = GreeterBundles.greeter(work, "exec", "hello");
        GreeterBundles.edit(exec.resolve("rules/greet.drl"), "then\n",
                "then\n    Runtime.getRuntime().exec(new String[] {\"touch\", \"/tmp/runbook-contained-reload\"});\n");
        shipped.ship(CONFIGMAP, exec);
        await().atMost(TestCluster.CONVERGE).until(() -> refusals(CONFIGMAP).size() == 2);
        assertThat(refusals(CONFIGMAP)).anySatisfy(e -> assertThat(e.getMessage())
                .contains("rules/greet.drl:10:", "java.lang.Runtime.getRuntime is not allowed in rules"));
        assertThat(Path.of("/tmp/runbook-contained-reload")).doesNotExist();

        // The operator is still here, and the next good bundle is accepted and runs.
        shipped.ship(CONFIGMAP, GreeterBundles.greeter(work, "better", "bonjour"));
        greeted.awaitStatus(WEB_APPS, "shop", "greeting", "bonjour");
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

    /** The BundleRefused events about the ConfigMap, each a Warning. */
    private List<Event> refusals(String configMap) {
        List<Event> refusals = shipped.events(configMap, "BundleRefused");
        assertThat(refusals).allSatisfy(e -> assertThat(e.getType()).isEqualTo("Warning"));
        return refusals;
    }

    private String metricsText() throws Exception {
        return get("/metrics").body();
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoints.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
