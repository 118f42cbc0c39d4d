package dev.runbook.operator.it;

import dev.runbook.operator.testkit.InstanceAccounts;
import dev.runbook.operator.testkit.SteppedClock;
import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
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

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 * plane), and writes their status. Runs on the fabric8 mock API server and, with
 * {@code -Drunbook.it.kubeconfig}, on testenv's control plane.
 */
@RunbookIT(crds = "../runbooks/postgres-cluster/crds")
class PrimaryNodeLostIT {
    static final String LSN = "postgres.runbook.dev/replayed-lsn";
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
    final List<String> nodes = new ArrayList<>();

    @BeforeAll
    static void compileBundle() {
        bundle = BundleCompiler.compile(BundleLoader.load(PostgresClusterIT.BUNDLE));
    }

    @BeforeEach
    void start() {
        InstanceAccounts.prepare(client, namespace);
        clock = new SteppedClock();
        operator = new RunbookOperator(client, List.of(bundle), Set.of(namespace), clock);
        operator.start();
    }

    @AfterEach
    void stop() {
        if (operator != null) operator.close();
        for (String node : nodes) client.nodes().withName(node).delete();
    }

    @Test
    void thePrimaryFailsOverWhenItsNodeIsNoLongerReady() throws IOException {
        String lost = createNode("a");
        String kept = createNode("b");
        createPod("pg-0", lost);
        createPod("pg-1", kept);
        createPod("pg-2", kept);
        createCluster();

        Map<String, Object> healthy = await().atMost(PostgresClusterIT.BOOTSTRAP).until(this::postgresCluster,
                pg -> pg != null && "Healthy".equals(at(pg, "status.phase")));
        assertThat((String) at(healthy, "status.currentPrimary")).isEqualTo("pg-0");
        annotatePod("pg-0", LSN, "0/3000000");
        annotatePod("pg-1", LSN, "0/2FFFFD0");
        annotatePod("pg-2", LSN, "0/3000000");
        await().atMost(TestCluster.CONVERGE).until(() -> "0/3000000".equals(at(postgresCluster(), "status.primaryLsn")));

        // The node controller's view of a lost node: its Ready condition turns Unknown. The pods on it
        // keep their last status, Ready: only the Node says that pg-0 is gone.
        setNodeReady(lost, "Unknown");

        // The Node's event reaches the cluster whose pod runs there: the failure is recorded at once,
        // not at the next reconcile period.
        await().atMost(WITHIN_A_PERIOD).untilAsserted(() -> {
            Map<String, Object> pg = postgresCluster();
            assertThat((String) at(pg, "status.primaryFailedSince")).isNotBlank();
            assertThat((String) at(pg, "status.currentPrimary")).isEqualTo("pg-0");
        });
        assertThat(events("FailoverStarted")).isEmpty();

        // Past the failover delay (a cycle runs on the next change: pg-1 catches up with pg-2).
        clock.advance(FAILOVER_DELAY.plusSeconds(5));
        annotatePod("pg-1", LSN, "0/2FFFFE0");

        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            Map<String, Object> pg = postgresCluster();
            assertThat((String) at(pg, "status.targetPrimary")).isEqualTo("pg-2");
            assertThat((String) at(pg, "status.promotionReason")).isEqualTo("failover");
            assertThat(roles()).contains("pg-0=fenced");
        });
        assertThat(events("FailoverStarted")).singleElement().satisfies(e -> assertThat(e.getMessage())
                .startsWith("pg-0 has been on the node " + lost + ", which is not ready, for ")
                .contains("promoting pg-2"));

        // The instance side: pg-2 promotes itself and says so; it becomes the primary.
        annotatePod("pg-2", "postgres.runbook.dev/reported-role", "primary");
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            Map<String, Object> pg = postgresCluster();
            assertThat((String) at(pg, "status.currentPrimary")).isEqualTo("pg-2");
            assertThat(roles()).contains("pg-0=fenced", "pg-2=primary");
        });

        // While its node is lost, pg-0 stays fenced although its pod still says Ready; once the node
        // is back, it rejoins as a replica and the cluster is Healthy under pg-2.
        setNodeReady(lost, "True");
        Map<String, Object> back = await().atMost(TestCluster.CONVERGE).until(this::postgresCluster,
                pg -> "Healthy".equals(at(pg, "status.phase")) && roles().contains("pg-0=replica"));
        assertThat((String) at(back, "status.currentPrimary")).isEqualTo("pg-2");
        assertThat(condition(back, "Ready")).containsEntry("status", "True");
        assertThat(roles()).containsExactlyInAnyOrder("pg-0=replica", "pg-1=replica", "pg-2=primary");
    }

    /** A node of this test: Ready, tainted so that nothing is scheduled onto it, with no kubelet or kwok behind it. */
    private String createNode(String suffix) {
        String name = namespace + "-" + suffix;
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name)
                .addToLabels("runbook.dev/test", "PrimaryNodeLostIT").endMetadata()
                .withNewSpec().addNewTaint().withKey("runbook.dev/test").withValue("nodes").withEffect("NoSchedule").endTaint()
                .endSpec().build()).create();
        nodes.add(name);
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

    /** samples/cluster.yaml in the test's namespace, with a short failover delay and no backups. */
    private void createCluster() throws IOException {
        GenericKubernetesResource sample;
        try (InputStream in = Files.newInputStream(PostgresClusterIT.BUNDLE.resolve("samples/cluster.yaml"))) {
            sample = client.getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
        }
        sample.getMetadata().setNamespace(namespace);
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = new LinkedHashMap<>((Map<String, Object>) sample.getAdditionalProperties().get("spec"));
        spec.put("failoverDelay", FAILOVER_DELAY.toSeconds() + "s");
        spec.remove("backup");
        sample.getAdditionalProperties().put("spec", spec);
        client.genericKubernetesResources("postgres.runbook.dev/v1alpha1", "PostgresCluster").inNamespace(namespace)
                .resource(sample).create();
    }

    private void annotatePod(String name, String key, String value) {
        String patch = client.getKubernetesSerialization().asJson(Map.of("metadata", Map.of("annotations", Map.of(key, value))));
        client.pods().inNamespace(namespace).withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    }

    private List<String> roles() {
        return client.pods().inNamespace(namespace).list().getItems().stream()
                .map(p -> p.getMetadata().getName() + "=" + p.getMetadata().getLabels().get("postgres.runbook.dev/role"))
                .toList();
    }

    private List<Event> events(String reason) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> "pg".equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason()))
                .toList();
    }

    private Map<String, Object> postgresCluster() {
        GenericKubernetesResource pg = client.genericKubernetesResources("postgres.runbook.dev/v1alpha1", "PostgresCluster")
                .inNamespace(namespace).withName("pg").get();
        return pg == null ? null : client.getKubernetesSerialization().convertValue(pg, Map.class);
    }
}
