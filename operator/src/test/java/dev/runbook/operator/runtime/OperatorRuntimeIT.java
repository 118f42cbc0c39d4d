package dev.runbook.operator.runtime;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.operator.leader.LeaderElection;
import dev.runbook.operator.metrics.OperatorEndpoints;
import dev.runbook.operator.metrics.MetricsPage;
import dev.runbook.operator.metrics.OperatorMetrics;
import dev.runbook.operator.reload.BundleConfigMaps;
import dev.runbook.operator.testkit.Cycles;
import dev.runbook.operator.testkit.MergePatches;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import dev.runbook.operator.testkit.NeedsSandbox;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import static dev.runbook.operator.testkit.Objects.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What {@code runbook run} runs, on an API server: metrics scraped over HTTP after real cycles and a
 * reload, and leader election between two replicas, each with a client of its own.
 */
@RunbookIT(crds = "src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml")
@NeedsSandbox
class OperatorRuntimeIT {
    static final Path WEB_APP = Path.of("src/test/resources/bundles/web-app");
    static final ResourceDefinitionContext WEB_APPS = new ResourceDefinitionContext.Builder()
            .withGroup("test.runbook.dev").withVersion("v1").withKind("WebApp").withPlural("webapps")
            .withNamespaced(true).build();

    static TestCluster cluster;
    static CompiledBundle bundle;

    final List<AutoCloseable> closing = new ArrayList<>();
    final HttpClient http = HttpClient.newHttpClient();
    @TestNamespace("system")
    String system;
    @TestNamespace("apps")
    String apps;

    @BeforeAll
    static void compileBundle() {
        bundle = BundleCompiler.compile(BundleLoader.load(WEB_APP));
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) closing.get(i).close();
    }

    @Test
    void theMetricsEndpointShowsCyclesFiringsActionsAndReloads() throws Exception {
        OperatorMetrics metrics = OperatorMetrics.create();
        OperatorRuntime runtime = runtime(cluster.client(), metrics, new Cycles(), null, true);
        OperatorEndpoints endpoints = OperatorEndpoints.start(new InetSocketAddress("127.0.0.1", 0), metrics::scrape,
                runtime::notAlive, runtime::notReady);
        closing.add(endpoints);
        runtime.start();
        ship(Path.of("src/test/resources/bundles/greeter"));

        createApp(cluster.client(), "shop");
        await().atMost(TestCluster.CONVERGE).until(() -> "Serving".equals(at(app("shop"), "status.phase")));
        // The greeter bundle reconciles WebApps too: refused, and counted.
        await().atMost(TestCluster.CONVERGE).until(() -> get(endpoints, "/metrics").body()
                .contains("runbook_bundle_reloads_total{bundle=\"greeter\",result=\"refused\"} 1.0"));

        String scrape = get(endpoints, "/metrics").body();
        assertThat(scrape)
                .containsPattern("runbook_cycles_seconds_count\\{bundle=\"web-app\",kind=\"WebApp\",mode=\"enforce\",outcome=\"ok\"} [1-9]")
                .containsPattern("runbook_rule_firings_total\\{bundle=\"web-app\",rule=\"Keep the configuration\"} [1-9]")
                .containsPattern("runbook_actions_total\\{bundle=\"web-app\",outcome=\"created\",type=\"apply\"} 1.0")
                .contains("runbook_bundle_active{bundle=\"web-app\",version=\"" + bundle.version() + "\"} 1.0")
                .contains("runbook_bundle_generation{bundle=\"web-app\"} 1.0")
                .contains("runbook_leader 1.0")
                .containsPattern("workqueue_depth\\{name=\"web-app\"} [0-9]")
                .containsPattern("workqueue_retries_total\\{name=\"web-app\"} [0-9]");
        assertThat(get(endpoints, "/readyz").statusCode()).isEqualTo(200);
        assertThat(get(endpoints, "/healthz").statusCode()).isEqualTo(200);
        // What a running operator serves is what docs/metrics.md documents (MetricsReferenceTest: the other way too).
        assertThat(MetricsPage.families(scrape)).filteredOn(family -> !MetricsPage.JVM.matcher(family).matches())
                .as("metrics served on /metrics that no table of docs/metrics.md lists").isSubsetOf(MetricsPage.tables());
    }

    @Test
    void onlyTheLeaderActsAndTheStandbyTakesOverWhenTheLeaderStops() {
        Cycles cyclesA = new Cycles();
        Cycles cyclesB = new Cycles();
        OperatorRuntime a = runtime(cluster.client(), OperatorMetrics.create(), cyclesA, "replica-a", false);
        a.start();
        await().atMost(TestCluster.CONVERGE).until(a::isActing);
        OperatorRuntime b = runtime(cluster.client(), OperatorMetrics.create(), cyclesB, "replica-b", false);
        b.start();

        createApp(cluster.client(), "shop");
        await().atMost(TestCluster.CONVERGE).until(() -> "Serving".equals(at(app("shop"), "status.phase")));
        // For two lease durations (many renewals), the standby never acts.
        await().during(TestCluster.LEADER_ELECTION.leaseDuration().multipliedBy(2)).atMost(TestCluster.CONVERGE)
                .until(() -> !b.isActing() && cyclesB.count(apps, "shop") == 0);
        assertThat(b.notReady()).as("a standby is ready to take over").isEmpty();
        assertThat(cyclesB.count(apps, "shop")).isZero();
        assertThat(cyclesA.count(apps, "shop")).isPositive();
        assertThat(holder()).isEqualTo("replica-a");

        a.close(); // releases the Lease
        await().atMost(TestCluster.CONVERGE).until(b::isActing);
        assertThat(holder()).isEqualTo("replica-b");
        patchGreeting("shop", "after-takeover");
        await().atMost(TestCluster.CONVERGE).until(() -> cyclesB.count(apps, "shop") > 0
                && "after-takeover".equals(configGreeting("shop")));
    }

    @Test
    void aLeaderThatLosesTheApiServerStopsActingAndTheStandbyTakesOver() {
        AtomicBoolean partitioned = new AtomicBoolean();
        KubernetesClient own = partitionable(partitioned, false);
        Cycles cyclesA = new Cycles();
        Cycles cyclesB = new Cycles();
        OperatorRuntime a = runtime(own, partitionable(partitioned, true), OperatorMetrics.create(), cyclesA, "replica-a", false);
        a.start();
        await().atMost(TestCluster.CONVERGE).until(a::isActing);
        OperatorRuntime b = runtime(cluster.client(), OperatorMetrics.create(), cyclesB, "replica-b", false);
        b.start();

        // Replica a loses the API server without releasing anything: it cannot renew, so it stands down,
        // and b takes the Lease once it has expired.
        partitioned.set(true);
        await().atMost(TestCluster.CONVERGE).until(() -> !a.isActing());
        await().atMost(TestCluster.CONVERGE).until(b::isActing);
        assertThat(holder()).isEqualTo("replica-b");
        createApp(cluster.client(), "shop");
        await().atMost(TestCluster.CONVERGE).until(() -> "Serving".equals(at(app("shop"), "status.phase")));
        assertThat(cyclesA.count(apps, "shop")).isZero();
        assertThat(cyclesB.count(apps, "shop")).isPositive();
    }

    // --- helpers ---

    private OperatorRuntime runtime(KubernetesClient client, OperatorMetrics metrics, Cycles cycles, String identity,
                                    boolean bundleConfigMaps) {
        KubernetesClient leaseClient = identity == null ? null : LeaderElection.leaseClient(client, TestCluster.LEADER_ELECTION);
        return runtime(client, leaseClient, metrics, cycles, identity, bundleConfigMaps);
    }

    private OperatorRuntime runtime(KubernetesClient client, KubernetesClient leaseClient, OperatorMetrics metrics,
                                    Cycles cycles, String identity, boolean bundleConfigMaps) {
        var lease = identity == null ? null
                : new OperatorRuntime.Lease(system, "runbook-operator", identity, TestCluster.LEADER_ELECTION, leaseClient);
        var settings = new OperatorRuntime.Settings(List.of(bundle), Set.of(apps), bundleConfigMaps ? system : null, lease);
        OperatorRuntime runtime = new OperatorRuntime(client, settings, Clock.systemUTC(), metrics, cycles);
        closing.add(runtime);
        if (client != cluster.client()) closing.add(client);
        return runtime;
    }

    /**
     * A client of its own whose requests fail (connection refused) while {@code partitioned} is set;
     * for the Lease, configured as {@link LeaderElection#leaseClient} configures it.
     */
    private static KubernetesClient partitionable(AtomicBoolean partitioned, boolean forTheLease) {
        var config = new ConfigBuilder(cluster.client().getConfiguration());
        if (forTheLease) {
            config.withRequestRetryBackoffLimit(0).withRequestTimeout((int) TestCluster.LEADER_ELECTION.renewDeadline().dividedBy(2).toMillis());
        }
        return new KubernetesClientBuilder().withConfig(config.build())
                .withHttpClientBuilderConsumer(builder -> builder.addOrReplaceInterceptor("partition", new Interceptor() {
                    @Override
                    public void before(BasicBuilder request, HttpRequest original, RequestTags tags) {
                        if (partitioned.get()) request.uri(URI.create("http://127.0.0.1:9" + original.uri().getRawPath()));
                    }
                })).build();
    }

    private String holder() {
        Lease lease = cluster.client().leases().inNamespace(system).withName("runbook-operator").get();
        return lease == null ? null : lease.getSpec().getHolderIdentity();
    }

    private void ship(Path bundleDir) {
        cluster.client().configMaps().inNamespace(system).resource(new ConfigMapBuilder()
                .withNewMetadata().withName("runbook-bundle-greeter").addToLabels(BundleConfigMaps.LABEL, "greeter").endMetadata()
                .withData(BundleConfigMaps.pack(bundleDir)).build()).create();
    }

    private void createApp(KubernetesClient client, String name) {
        GenericKubernetesResource resource = client.getKubernetesSerialization().convertValue(Map.of(
                "apiVersion", "test.runbook.dev/v1", "kind", "WebApp",
                "metadata", Map.of("name", name, "namespace", apps),
                "spec", Map.of("greeting", "hi")), GenericKubernetesResource.class);
        client.genericKubernetesResources(WEB_APPS).inNamespace(apps).resource(resource).create();
    }

    private void patchGreeting(String name, String greeting) {
        MergePatches.merge(cluster.client(), cluster.client().genericKubernetesResources(WEB_APPS).inNamespace(apps).withName(name),
                Map.of("spec", Map.of("greeting", greeting)));
    }

    private String configGreeting(String app) {
        var config = cluster.client().configMaps().inNamespace(apps).withName(app + "-config").get();
        return config == null ? null : config.getData().get("greeting");
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> app(String name) {
        GenericKubernetesResource resource = cluster.client().genericKubernetesResources(WEB_APPS).inNamespace(apps).withName(name).get();
        return resource == null ? Map.of() : cluster.client().getKubernetesSerialization().convertValue(resource, Map.class);
    }

    private HttpResponse<String> get(OperatorEndpoints endpoints, String path) throws IOException, InterruptedException {
        return http.send(java.net.http.HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoints.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
