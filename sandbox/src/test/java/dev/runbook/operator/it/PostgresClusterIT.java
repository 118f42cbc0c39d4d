package dev.runbook.operator.it;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.testkit.simulation.SimulatedControllers;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.sandbox.KubeCluster;
import dev.runbook.operator.testkit.Cycles;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.SamplePostgresCluster;
import dev.runbook.operator.testkit.SteppedClock;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import dev.runbook.rules.fact.ObjectRef;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static dev.runbook.operator.testkit.Objects.at;
import static dev.runbook.operator.testkit.Objects.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The shipped postgres-cluster bundle, run by the operator against the API server. On the embedded
 * server the engine's simulated controllers play the StatefulSet controller and the kubelet through a
 * {@link KubeCluster}; on a cluster that runs pods (testenv/'s, with kwok as the kubelet) the real
 * controllers do, and the test only writes what a kubelet's readiness probe would (a pod turning not
 * ready, then ready again):
 * a PostgresCluster bootstraps from nothing but its resource to Healthy, with a primary and replicas,
 * and fails over when its primary stops being ready. The operator and the simulated controllers share
 * a clock that the test can move forward, so that a failover delay passes without waiting for it.
 */
@RunbookIT(crds = "../runbooks/postgres-cluster/crds")
class PostgresClusterIT {
    static final Logger LOG = LoggerFactory.getLogger(PostgresClusterIT.class);
    /** How often the simulated controllers look at the cluster. */
    static final Duration CONTROLLER_TICK = Duration.ofMillis(200);

    static TestCluster cluster;
    static CompiledBundle bundle;

    KubernetesClient client;
    @TestNamespace("pg")
    String namespace;
    RunbookOperator operator;
    Cycles cycles;
    ScheduledExecutorService controllers;
    SteppedClock clock;
    KubeCluster view;
    SimulatedControllers simulated;
    SamplePostgresCluster pg;

    @BeforeAll
    static void compileBundle() {
        bundle = BundleCompiler.compile(BundleLoader.load(SamplePostgresCluster.BUNDLE));
    }

    @BeforeEach
    void start() {
        pg = new SamplePostgresCluster(client, namespace);
        KubeApi api = new KubeApi(client);
        api.register(bundle.spec().primary());
        clock = new SteppedClock();
        view = new KubeCluster(api, namespace, List.of(
                bundle.spec().primary().kind(),
                new Kind("v1", "Pod"), new Kind("apps/v1", "StatefulSet"), new Kind("batch/v1", "Job"),
                new Kind("v1", "Service"), new Kind("v1", "ConfigMap")), clock);
        simulated = new SimulatedControllers(view, Duration.ZERO);
        controllers = Executors.newSingleThreadScheduledExecutor();
        boolean realPods = cluster.runsPods();
        LOG.info("pods made and run by {}", realPods ? "the cluster's own controllers and kubelet" : "the simulated controllers");
        if (!realPods) controllers.scheduleWithFixedDelay(() -> {
            try {
                simulated.settle(view.now());
            } catch (RuntimeException e) {
                // A write that raced the operator (409) is simply tried again at the next tick.
                LOG.debug("simulated controllers: {}", e.getMessage());
            }
        }, 0, CONTROLLER_TICK.toMillis(), TimeUnit.MILLISECONDS);
        cycles = new Cycles();
        operator = RunbookOperator.builder(client).bundles(List.of(bundle)).namespaces(Set.of(namespace)).clock(clock)
                .listener(cycles).build();
        operator.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (operator != null) operator.close();
        controllers.shutdownNow();
        controllers.awaitTermination(10, TimeUnit.SECONDS);
    }

    @Test
    void aClusterBootstrapsToHealthyWithAPrimaryAndReplicas() {
        pg.create(spec -> {});

        Map<String, Object> healthy = awaitHealthy();

        assertThat((String) at(healthy, "status.currentPrimary")).isEqualTo("pg-0");
        assertThat(((Number) at(healthy, "status.readyInstances")).intValue()).isEqualTo(3);
        assertThat(condition(healthy, "Ready")).containsEntry("status", "True");
        assertThat(condition(healthy, "RunbookApplied")).containsEntry("status", "True");
        assertThat((String) at(healthy, "status.bundleVersion")).isEqualTo(bundle.version());

        StatefulSet set = client.apps().statefulSets().inNamespace(namespace).withName("pg").get();
        assertThat(set.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(o -> assertThat(o.getUid()).isEqualTo(at(healthy, "metadata.uid")));
        assertThat(pg.roles()).containsExactlyInAnyOrder("pg-0=primary", "pg-1=replica", "pg-2=replica");
        assertThat(client.services().inNamespace(namespace).list().getItems()).extracting(s -> s.getMetadata().getName())
                .contains("pg-rw", "pg-ro", "pg-instances");
    }

    /**
     * The failover drill of tests/failover-drill.yaml, against the API server: the primary stops being
     * ready; nothing happens within spec.failoverDelay; past it, the ready replica that has replayed the
     * most WAL is recorded as the target and the old primary is fenced; once the target reports that it
     * runs as primary it is labelled so and becomes the current primary; the old primary, ready again,
     * rejoins as a replica.
     */
    @Test
    void aPrimaryThatStaysNotReadyPastTheFailoverDelayIsReplacedByTheMostAdvancedReplica() {
        // Long enough that a loaded machine cannot let it pass by itself before the test moves the clock.
        Duration failoverDelay = Duration.ofMinutes(5);
        pg.create(spec -> {
            spec.put("failoverDelay", failoverDelay.toSeconds() + "s");
            spec.remove("backup"); // no backup Job may start when the clock moves on
        });
        awaitHealthy();
        // The instances report how far they have replayed the WAL: pg-2 is ahead of pg-1, so it is
        // the choice whichever cycle starts the failover (not the lowest ordinal, the tie-breaker).
        pg.annotatePod("pg-0", SamplePostgresCluster.LSN, "50331648");
        pg.annotatePod("pg-1", SamplePostgresCluster.LSN, "50331600");
        pg.annotatePod("pg-2", SamplePostgresCluster.LSN, "50331640");

        // The primary stops being ready (the kubelet writes its Ready condition False).
        await().atMost(TestCluster.CONVERGE).ignoreExceptions()
                .until(() -> { simulated.podNotReady(pod("pg-0"), view.now()); return true; });

        // Within the delay the cluster is degraded, says its primary failed, and nothing is promoted. (Each
        // action writes on its own: the phase and the condition are awaited together.)
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            Map<String, Object> current = pg.get();
            assertThat((String) at(current, "status.phase")).isEqualTo("Degraded");
            assertThat(condition(current, "Ready")).containsEntry("status", "False").containsEntry("reason", "PrimaryFailed");
        });
        assertThat((String) at(pg.get(), "status.targetPrimary")).isEqualTo("pg-0");
        assertThat(pg.events("FailoverStarted")).isEmpty();

        // Past the delay. A cycle runs on the next change: pg-2 reports more replayed WAL.
        clock.advance(failoverDelay.plusSeconds(5));
        pg.annotatePod("pg-2", SamplePostgresCluster.LSN, "50331648");

        // The intent is recorded first, then the old primary is fenced out of the read-write service.
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            Map<String, Object> current = pg.get();
            assertThat((String) at(current, "status.targetPrimary")).isEqualTo("pg-2");
            assertThat((String) at(current, "status.promotionReason")).isEqualTo("failover");
            assertThat((String) at(current, "status.currentPrimary")).isEqualTo("pg-0");
            assertThat((String) at(current, "status.phase")).isEqualTo("FailingOver");
            assertThat(pg.roles()).containsExactlyInAnyOrder("pg-0=fenced", "pg-1=replica", "pg-2=replica");
        });
        assertThat(pg.events("FailoverStarted")).singleElement().satisfies(e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getInvolvedObject().getKind()).isEqualTo("PostgresCluster");
            assertThat(e.getMessage()).startsWith("pg-0 has not been ready for ")
                    .contains("promoting pg-2, the ready replica with the most replayed WAL");
        });

        // The instance side: pg-2 sees itself in targetPrimary with the old primary fenced, promotes
        // itself and reports it.
        pg.annotatePod("pg-2", "postgres.runbook.dev/reported-role", "primary");

        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            Map<String, Object> current = pg.get();
            assertThat((String) at(current, "status.currentPrimary")).isEqualTo("pg-2");
            assertThat((String) at(current, "status.targetPrimary")).isEqualTo("pg-2");
            assertThat(pg.roles()).containsExactlyInAnyOrder("pg-0=fenced", "pg-1=replica", "pg-2=primary");
            assertThat(pg.events("PromotionCompleted")).isNotEmpty();
        });
        assertThat(pg.events("PromotionCompleted")).singleElement()
                .satisfies(e -> assertThat(e.getMessage()).isEqualTo("pg-2 is the primary; pg-0 is fenced"));

        // The former primary is ready again (rewound, following pg-2, and its instance manager says so): it rejoins as a replica.
        pg.annotatePod("pg-0", "postgres.runbook.dev/reported-role", "replica");
        await().atMost(TestCluster.CONVERGE).ignoreExceptions()
                .until(() -> { simulated.podReady(pod("pg-0"), view.now()); return true; });
        Map<String, Object> healthy = awaitHealthy();
        assertThat((String) at(healthy, "status.currentPrimary")).isEqualTo("pg-2");
        assertThat(pg.roles()).containsExactlyInAnyOrder("pg-0=replica", "pg-1=replica", "pg-2=primary");
    }

    /**
     * Converged: Healthy, and the last cycle found nothing left to change (its report says so:
     * {@code status.lastCycle} keeps the last cycle that changed something).
     */
    private Map<String, Object> awaitHealthy() {
        return await().atMost(SamplePostgresCluster.BOOTSTRAP).until(pg::getReportingRoles, current -> {
            CycleReport last = cycles.last(namespace, "pg");
            return "Healthy".equals(at(current, "status.phase")) && last != null && last.settled();
        });
    }

    private ObjectRef pod(String name) {
        return ObjectRef.of("v1", "Pod", namespace, name);
    }
}
