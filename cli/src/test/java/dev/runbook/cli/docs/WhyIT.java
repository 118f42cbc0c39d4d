package dev.runbook.cli.docs;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.testkit.simulation.SimulatedControllers;
import dev.runbook.operator.history.DecisionHistory;
import dev.runbook.operator.kube.EventWriter;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.metrics.OperatorEndpoints;
import dev.runbook.operator.metrics.OperatorMetrics;
import dev.runbook.operator.runtime.OperatorRuntime;
import dev.runbook.sandbox.KubeCluster;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.SamplePostgresCluster;
import dev.runbook.operator.testkit.SteppedClock;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import dev.runbook.rules.fact.ObjectRef;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static dev.runbook.operator.testkit.Objects.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * docs/why.md against an API server, its sessions run from the page's text ({@link ClusterExamples}):
 * the operator runs postgres-cluster with its decision history and its HTTP endpoints, as {@code runbook
 * run} does; a PostgresCluster bootstraps; its primary stops being ready; within the failover delay,
 * {@code runbook why --rule} explains that the failover rule waits on its {@code failedSeconds}
 * constraint, with the values compared; past the delay the failover starts, and {@code runbook why
 * --history} shows the decision that started it, which the FailoverStarted event names by its cycle.
 */
@RunbookIT(crds = "../runbooks/postgres-cluster/crds")
class WhyIT {
    static final String START_A_FAILOVER = "Start a failover when the primary has been not ready for longer than failoverDelay";
    /** The page's names for what this test has its own of. */
    static final String PAGE_NAMESPACE = "databases";
    static final String PAGE_OPERATOR = "http://127.0.0.1:8080";
    static final String PAGE_CYCLE = "x7k2-41";
    static final Duration CONTROLLER_TICK = Duration.ofMillis(200);

    static TestCluster cluster;
    static CompiledBundle bundle;

    KubernetesClient client;
    @TestNamespace("why")
    String namespace;
    SteppedClock clock;
    KubeCluster view;
    SimulatedControllers simulated;
    ScheduledExecutorService controllers;
    SamplePostgresCluster pg;
    OperatorMetrics metrics;
    DecisionHistory history;
    OperatorRuntime runtime;
    OperatorEndpoints endpoints;

    @BeforeAll
    static void compileBundle() {
        bundle = BundleCompiler.compile(BundleLoader.load(SamplePostgresCluster.BUNDLE));
    }

    @BeforeEach
    void start() throws Exception {
        pg = new SamplePostgresCluster(client, namespace);
        KubeApi api = new KubeApi(client);
        api.register(bundle.spec().primary());
        clock = new SteppedClock();
        view = new KubeCluster(api, namespace, List.of(bundle.spec().primary().kind(), new Kind("v1", "Pod"),
                new Kind("apps/v1", "StatefulSet"), new Kind("batch/v1", "Job"), new Kind("v1", "Service"), new Kind("v1", "ConfigMap")), clock);
        simulated = new SimulatedControllers(view, Duration.ZERO);
        controllers = Executors.newSingleThreadScheduledExecutor();
        if (!cluster.runsPods()) controllers.scheduleWithFixedDelay(() -> {
            try {
                simulated.settle(view.now());
            } catch (RuntimeException e) {
                // A write that raced the operator (409) is tried again at the next tick.
            }
        }, 0, CONTROLLER_TICK.toMillis(), TimeUnit.MILLISECONDS);
        // As `runbook run` puts them together (RunCommand): metrics, the history, the endpoints.
        metrics = OperatorMetrics.create();
        history = new DecisionHistory(DecisionHistory.DEFAULT_PER_PRIMARY, clock);
        runtime = new OperatorRuntime(client, new OperatorRuntime.Settings(List.of(bundle), Set.of(namespace), null, null),
                clock, metrics, history);
        runtime.start();
        endpoints = OperatorEndpoints.start(new InetSocketAddress("127.0.0.1", 0), metrics::scrape, runtime::notAlive,
                runtime::notReady, history::json);
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (endpoints != null) endpoints.close();
        if (runtime != null) runtime.close();
        if (metrics != null) metrics.close();
        controllers.shutdownNow();
        controllers.awaitTermination(10, TimeUnit.SECONDS);
    }

    @Test
    void aFailoverIsExplainedBeforeAndAfterItStarts(@TempDir Path work) throws Exception {
        ClusterExamples page = new ClusterExamples(ClusterExamples.root(), "docs/why.md", List.of("--kubeconfig", kubeconfig(work).toString()))
                .substitute(PAGE_NAMESPACE + "/", namespace + "/")
                .substitute("namespace: " + PAGE_NAMESPACE, "namespace: " + namespace)
                .substitute(PAGE_OPERATOR, "http://127.0.0.1:" + endpoints.port());
        pg.create(spec -> {
            spec.put("failoverDelay", "30s");
            spec.remove("backup"); // no backup Job may start when the clock moves on
        });
        // Healthy only once the instances report their roles, as their instance managers would.
        await().atMost(SamplePostgresCluster.BOOTSTRAP).until(pg::getReportingRoles, current -> "Healthy".equals(at(current, "status.phase")));
        List<String> now = page.run("healthy", clock);
        // The same observation as the operator's: at rest, `why` fires the rules the operator's last cycle fired.
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(firedRules(page.run("healthy", clock).get(0)))
                .isEqualTo(history.decisions(namespace, "pg").orElseThrow().get(0).get("fired") instanceof List<?> fired
                        ? fired.stream().map(f -> ((Map<?, ?>) f).get("rule")).toList() : List.of()));
        assertThat(now.get(0)).contains("valid: true");
        // The instances report how far they replayed the WAL: pg-2 is ahead, and is the one promoted.
        pg.annotatePod("pg-0", SamplePostgresCluster.LSN, "50331648");
        pg.annotatePod("pg-1", SamplePostgresCluster.LSN, "50331600");
        pg.annotatePod("pg-2", SamplePostgresCluster.LSN, "50331648");

        // The primary stops being ready; within the 30 s delay the cluster is Degraded and nothing is promoted.
        await().atMost(TestCluster.CONVERGE).ignoreExceptions()
                .until(() -> { simulated.podNotReady(ObjectRef.of("v1", "Pod", namespace, "pg-0"), view.now()); return true; });
        await().atMost(TestCluster.CONVERGE).until(pg::get, current -> "Degraded".equals(at(current, "status.phase")));
        List<String> waiting = page.run("degraded", clock);
        assertThat(waiting.get(0)).contains("matches: 0").contains("failedSeconds >= $cluster.seconds(\"spec.failoverDelay\"");

        // Past the delay: a cycle runs on the next change (pg-1 reports more WAL) and starts the failover. (On a
        // loaded machine the 30 s may pass on the wall clock first: pg-2 is ahead from the start, so the
        // decision is the same either way.)
        clock.advance(Duration.ofSeconds(35));
        pg.annotatePod("pg-1", SamplePostgresCluster.LSN, "50331610");
        await().atMost(TestCluster.CONVERGE).until(() -> pg.events("FailoverStarted"), events -> !events.isEmpty());
        Event started = pg.events("FailoverStarted").get(0);
        String cycle = started.getMetadata().getAnnotations().get(EventWriter.CYCLE_ANNOTATION);
        assertThat(cycle).as("the FailoverStarted event names the cycle that decided it").isNotBlank();
        await().atMost(TestCluster.CONVERGE).until(pg::get, current -> "pg-2".equals(at(current, "status.targetPrimary")));

        List<String> explained = page.substitute(PAGE_CYCLE, cycle).run("failed-over", clock);
        assertThat(explained).anySatisfy(printed -> assertThat(printed).contains("cycle: " + cycle)
                .contains("- rule: " + START_A_FAILOVER).contains("path: targetPrimary").contains("outcome: UPDATED"));
    }

    /**
     * The dashboard's queries and the alerts' expressions read only metrics a running operator serves: every
     * metric name in deploy/chart/dashboards/runbook-operator.json and deploy/chart/rules/*.yaml is in a
     * scrape of /metrics once a resource has had its cycles.
     */
    @Test
    void theDashboardAndTheAlertsReadOnlyMetricsTheOperatorServes() throws Exception {
        // What `runbook run --webhook-port` does once its webhook serves (RunCommand).
        metrics.webhookServing(true);
        pg.create(spec -> spec.remove("backup"));
        Set<String> read = new java.util.TreeSet<>();
        Path chart = ClusterExamples.root().resolve("deploy/chart");
        read.addAll(dev.runbook.operator.metrics.ChartQueries.dashboard(chart.resolve("dashboards/runbook-operator.json")));
        read.addAll(dev.runbook.operator.metrics.ChartQueries.rules(chart.resolve("rules/runbook-operator.rules.yaml")));
        assertThat(read).as("the names the dashboard and the alerts read").contains("runbook_cycles_seconds_bucket",
                "runbook_rule_firings_total", "runbook_actions_total", "runbook_bundle_reloads_total", "workqueue_depth",
                "runbook_leader", "runbook_primary_phase", "runbook_webhook_serving");

        await().atMost(SamplePostgresCluster.BOOTSTRAP).untilAsserted(() ->
                assertThat(dev.runbook.operator.metrics.ChartQueries.served(scrape())).containsAll(read));
    }

    private String scrape() throws Exception {
        var request = java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + endpoints.port() + "/metrics")).build();
        return java.net.http.HttpClient.newHttpClient().send(request, java.net.http.HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The rules a printed plan says fired, in order. */
    private static List<Object> firedRules(String printed) {
        String yaml = printed.substring(0, printed.indexOf("\nrunbook: "));
        Map<String, Object> plan = new org.yaml.snakeyaml.Yaml().load(yaml);
        return ((List<?>) plan.get("fired")).stream().map(f -> ((Map<?, ?>) f).get("rule")).map(Object.class::cast).toList();
    }

    /** A kubeconfig for the command line: the test's own file on a real cluster, else one for the embedded server. */
    private Path kubeconfig(Path work) throws Exception {
        if (!cluster.isMock()) return Path.of(TestCluster.kubeconfig());
        Path file = work.resolve("kubeconfig");
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: embedded
                  cluster: {server: "%s", insecure-skip-tls-verify: true}
                users:
                - name: test
                  user: {token: test}
                contexts:
                - name: embedded
                  context: {cluster: embedded, user: test}
                current-context: embedded
                """.formatted(client.getMasterUrl().toString().replaceAll("/+$", "")));
        return file;
    }
}
