package dev.runbook.operator.it;

import dev.runbook.operator.testkit.NodeHeartbeats;
import dev.runbook.operator.testkit.SamplePostgresCluster;
import dev.runbook.operator.testkit.SteppedClock;
import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.runbook.operator.testkit.Objects.at;
import static dev.runbook.operator.testkit.Objects.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The operator observes Nodes: the postgres-cluster bundle declares the Nodes its pods run on
 * ({@code mapping: reference} by a pod's {@code spec.nodeName}), and when the primary's node stops
 * being Ready the operator fails over, although the primary's pod itself still says it is ready (as a
 * lost node's pods do for minutes).
 *
 * <p>The test plays the kubelets: it creates two nodes of its own (tainted so that the scheduler puts
 * no one else's pod there, and never managed by kwok), binds the instance pods to them by
 * {@code spec.nodeName} before the cluster exists (the StatefulSet adopts them on a real control
 * plane), writes their status and renews their Leases ({@link NodeHeartbeats}). Runs on the fabric8 mock API server and, with
 * {@code -Drunbook.it.kubeconfig}, on testenv's control plane.
 */
@RunbookIT(crds = "../runbooks/postgres-cluster/crds")
class PrimaryNodeLostIT {
    static final Duration FAILOVER_DELAY = Duration.ofSeconds(5);
    /** Shorter than the bundle's reconcilePeriod (30s): what happens within it was started by an event. */
    static final Duration WITHIN_A_PERIOD = Duration.ofSeconds(20);

    static TestCluster cluster;
    static CompiledBundle bundle;

    KubernetesClient client;
    @TestNamespace("pg-node")
    String namespace;
    RunbookOperator operator;
    SteppedClock clock;
    NodeHeartbeats heartbeats;
    SamplePostgresCluster pg;
    final List<String> nodes = new ArrayList<>();

    @BeforeAll
    static void compileBundle() {
        bundle = BundleCompiler.compile(BundleLoader.load(SamplePostgresCluster.BUNDLE));
    }

    @BeforeEach
    void start() {
        pg = new SamplePostgresCluster(client, namespace);
        clock = new SteppedClock();
        heartbeats = new NodeHeartbeats(client);
        operator = RunbookOperator.builder(client).bundles(List.of(bundle)).namespaces(Set.of(namespace)).clock(clock)
                .build();
        operator.start();
    }

    @AfterEach
    void stop() {
        if (operator != null) operator.close();
        if (heartbeats != null) heartbeats.close();
        for (String node : nodes) client.nodes().withName(node).delete();
    }

    @Test
    void thePrimaryFailsOverWhenItsNodeIsNoLongerReady() {
        String lost = createNode("a");
        String kept = createNode("b");
        createPod("pg-0", lost);
        createPod("pg-1", kept);
        createPod("pg-2", kept);
        // samples/cluster.yaml with a short failover delay and no backups.
        pg.create(spec -> {
            spec.put("failoverDelay", FAILOVER_DELAY.toSeconds() + "s");
            spec.remove("backup");
        });

        Map<String, Object> healthy = await().atMost(SamplePostgresCluster.BOOTSTRAP).until(pg::getReportingRoles,
                current -> current != null && "Healthy".equals(at(current, "status.phase")));
        assertThat((String) at(healthy, "status.currentPrimary")).isEqualTo("pg-0");
        pg.annotatePod("pg-0", SamplePostgresCluster.LSN, "0/3000000");
        pg.annotatePod("pg-1", SamplePostgresCluster.LSN, "0/2FFFFD0");
        pg.annotatePod("pg-2", SamplePostgresCluster.LSN, "0/3000000");
        await().atMost(TestCluster.CONVERGE).until(() -> "0/3000000".equals(at(pg.get(), "status.primaryLsn")));

        // The node controller's view of a lost node: its Ready condition turns Unknown. The pods on it
        // keep their last status, Ready: only the Node says that pg-0 is gone.
        setNodeReady(lost, "Unknown");

        // The Node's event reaches the cluster whose pod runs there: the failure is recorded at once,
        // not at the next reconcile period.
        await().atMost(WITHIN_A_PERIOD).untilAsserted(() -> {
            Map<String, Object> current = pg.get();
            assertThat((String) at(current, "status.primaryFailedSince")).isNotBlank();
            assertThat((String) at(current, "status.currentPrimary")).isEqualTo("pg-0");
        });
        assertThat(pg.events("FailoverStarted")).isEmpty();

        // Past the failover delay (a cycle runs on the next change: pg-1 catches up with pg-2).
        clock.advance(FAILOVER_DELAY.plusSeconds(5));
        pg.annotatePod("pg-1", SamplePostgresCluster.LSN, "0/2FFFFE0");

        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            Map<String, Object> current = pg.get();
            assertThat((String) at(current, "status.targetPrimary")).isEqualTo("pg-2");
            assertThat((String) at(current, "status.promotionReason")).isEqualTo("failover");
            assertThat(pg.roles()).contains("pg-0=fenced");
        });
        assertThat(pg.events("FailoverStarted")).singleElement().satisfies(e -> assertThat(e.getMessage())
                .startsWith("pg-0 has been on the node " + lost + ", which is not ready, for ")
                .contains("promoting pg-2"));

        // The instance side: pg-2 promotes itself and says so; it becomes the primary.
        pg.annotatePod("pg-2", "postgres.runbook.dev/reported-role", "primary");
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            Map<String, Object> current = pg.get();
            assertThat((String) at(current, "status.currentPrimary")).isEqualTo("pg-2");
            assertThat(pg.roles()).contains("pg-0=fenced", "pg-2=primary");
        });

        // While its node is lost, pg-0 stays fenced although its pod still says Ready; once the node
        // is back, it rejoins as a replica (its instance manager reports it follows pg-2) and the cluster is Healthy under pg-2.
        pg.annotatePod("pg-0", "postgres.runbook.dev/reported-role", "replica");
        setNodeReady(lost, "True");
        Map<String, Object> back = await().atMost(TestCluster.CONVERGE).until(pg::getReportingRoles,
                current -> "Healthy".equals(at(current, "status.phase")) && pg.roles().contains("pg-0=replica"));
        assertThat((String) at(back, "status.currentPrimary")).isEqualTo("pg-2");
        assertThat(condition(back, "Ready")).containsEntry("status", "True");
        assertThat(pg.roles()).containsExactlyInAnyOrder("pg-0=replica", "pg-1=replica", "pg-2=primary");
    }

    /**
     * A node of this test: Ready, tainted so that nothing is scheduled onto it, with no kubelet or kwok
     * behind it. Its Lease is renewed for as long as the test runs, so that the node lifecycle controller
     * leaves its Ready condition to the test however long a loaded machine takes.
     */
    private String createNode(String suffix) {
        String name = namespace + "-" + suffix;
        Node node = client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name)
                .addToLabels("runbook.dev/test", "PrimaryNodeLostIT").endMetadata()
                .withNewSpec().addNewTaint().withKey("runbook.dev/test").withValue("nodes").withEffect("NoSchedule").endTaint()
                .endSpec().build()).create();
        nodes.add(name);
        heartbeats.start(node);
        setNodeReady(name, "True");
        return name;
    }

    private void setNodeReady(String name, String status) {
        String now = Instant.now().toString();
        NodeCondition ready = new NodeConditionBuilder().withType("Ready").withStatus(status)
                .withReason(status.equals("True") ? "KubeletReady" : "NodeStatusUnknown")
                .withMessage(status.equals("True") ? "kubelet is posting ready status" : "Kubelet stopped posting node status.")
                .withLastHeartbeatTime(now).withLastTransitionTime(now).build();
        // A strategic merge patch of the status subresource, not a read-modify-write: the node
        // lifecycle controller writes this node's taints and status too, and a PUT from a read it has
        // since changed fails with 409 Conflict. Conditions merge by type, so only Ready is replaced.
        Node patch = new NodeBuilder().withNewStatus().withConditions(ready).endStatus().build();
        client.nodes().withName(name).subresource("status").patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch);
    }

    /**
     * An instance pod bound to {@code node}, Running and Ready. It tolerates the taints a lost node gets,
     * so that it is not evicted: the test is about the Node, not about a pod being deleted.
     */
    private void createPod(String name, String node) {
        client.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName(name)
                .addToLabels("postgres.runbook.dev/cluster", "pg").endMetadata()
                .withNewSpec().withNodeName(node)
                .addNewContainer().withName("postgres").withImage("postgres:16.4").endContainer()
                .addNewToleration().withKey("runbook.dev/test").withOperator("Exists").endToleration()
                .addNewToleration().withKey("node.kubernetes.io/unreachable").withOperator("Exists").withEffect("NoExecute").endToleration()
                .addNewToleration().withKey("node.kubernetes.io/not-ready").withOperator("Exists").withEffect("NoExecute").endToleration()
                .endSpec().build()).create();
        String now = Instant.now().toString();
        // Patched, not PUT from the created object: the operator may already have labelled the pod.
        Pod status = new PodBuilder().withNewStatus().withPhase("Running")
                .withConditions(new PodConditionBuilder().withType("Ready").withStatus("True").withLastTransitionTime(now).build())
                .endStatus().build();
        client.pods().inNamespace(namespace).withName(name).subresource("status").patch(PatchContext.of(PatchType.STRATEGIC_MERGE), status);
    }
}
