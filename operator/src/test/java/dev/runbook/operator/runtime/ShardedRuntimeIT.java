package dev.runbook.operator.runtime;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.controller.ReconcileThreads;
import dev.runbook.operator.leader.LeaderElection;
import dev.runbook.operator.metrics.OperatorMetrics;
import dev.runbook.operator.shard.CycleRecords;
import dev.runbook.operator.shard.DoubleActors;
import dev.runbook.operator.shard.HashRing;
import dev.runbook.operator.shard.ShardLabels;
import dev.runbook.operator.shard.ShardedWebApps;
import dev.runbook.operator.shard.ShardingLoop;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code runbook run --shards} as the runtime runs it, on an API server: two sharded replicas (each an
 * {@link OperatorRuntime} with its member Lease, the sharder in whichever holds the leader Lease), 20
 * primaries of the greeter bundle. Each primary ends owned by its ring owner and reconciled by it alone;
 * the replica that leads stops, and the other takes the leader Lease and every primary; no two replicas'
 * cycles on one primary ever overlap ({@link DoubleActors}).
 */
@RunbookIT(crds = "src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml")
class ShardedRuntimeIT {
    private static final ShardingLoop.Timing LOOP = new ShardingLoop.Timing(Duration.ofMillis(500), Duration.ofSeconds(30));
    static CompiledBundle greeter;

    @TestNamespace("system")
    String system;
    @TestNamespace("apps")
    String apps;

    final CycleRecords cycles = new CycleRecords("test.runbook.dev", ShardedWebApps.KIND);
    final Map<String, OperatorMetrics> metrics = new HashMap<>();
    final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeAll
    static void compile() {
        greeter = BundleCompiler.compile(BundleLoader.load(Path.of("src/test/resources/bundles/greeter")));
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) closing.get(i).close();
    }

    @Test
    void twoReplicasShareThePrimariesAndTheOneLeftTakesAll(KubernetesClient client) {
        ShardedWebApps primaries = new ShardedWebApps(client, apps);
        primaries.create(20);
        Map<String, OperatorRuntime> replicas = new HashMap<>();
        for (String member : List.of("replica-a", "replica-b")) {
            OperatorRuntime replica = runtime(client, member);
            replica.start();
            replicas.put(member, replica);
        }
        HashRing ring = HashRing.of(replicas.keySet());
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(primaries.all()).hasSize(20).allSatisfy(p -> {
            assertThat(ShardedWebApps.owner(p)).isEqualTo(ring.ownerOf(primaries.keyOf(p)).orElseThrow());
            assertThat(p.getMetadata().getLabels()).doesNotContainKey(ShardLabels.DRAIN);
            assertThat(ShardedWebApps.status(p, "seen")).isEqualTo("1");
        }));
        assertThat(primaries.owners().values()).as("both replicas own a share").contains("replica-a", "replica-b");
        replicas.values().forEach(replica -> assertThat(replica.isActing()).isTrue());
        replicas.values().forEach(replica -> assertThat(replica.notReady()).as("a member acting on its share is ready").isEmpty());
        Map<String, String> shares = primaries.owners();
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            for (String member : replicas.keySet()) {
                long owned = shares.values().stream().filter(member::equals).count();
                assertThat(metrics.get(member).scrape()).as("%s's gauge of the primaries it owns", member)
                        .contains("runbook_shard_primaries " + owned + ".0");
            }
        });
        String leader = leaseHolder(client);
        assertThat(metrics.get(leader).scrape()).as("the leader Lease's holder").contains("runbook_leader 1.0");
        String other = leader.equals("replica-a") ? "replica-b" : "replica-a";
        assertThat(metrics.get(other).scrape()).contains("runbook_leader 0.0");

        Instant bumped = Instant.now();
        primaries.setCounter("2");
        await().atMost(TestCluster.CONVERGE).untilAsserted(() ->
                assertThat(primaries.all()).allSatisfy(p -> assertThat(ShardedWebApps.status(p, "seen")).isEqualTo("2")));
        Map<String, String> owners = primaries.owners();
        assertThat(cycles.membersSince(bumped)).as("after the change, each primary's cycles are its owner's alone")
                .hasSize(20).allSatisfy((primary, members) -> assertThat(members).containsExactly(owners.get(primary)));

        // The leader stops (it stands down, then releases both Leases): the other leads and takes every primary.
        replicas.get(leader).close();
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            assertThat(leaseHolder(client)).isEqualTo(other);
            assertThat(primaries.owners().values()).hasSize(20).containsOnly(other);
        });
        primaries.setCounter("3");
        await().atMost(TestCluster.CONVERGE).untilAsserted(() ->
                assertThat(primaries.all()).allSatisfy(p -> assertThat(ShardedWebApps.status(p, "seen")).isEqualTo("3")));
        assertThat(metrics.get(other).scrape()).contains("runbook_leader 1.0");

        assertThat(cycles.all()).isNotEmpty();
        assertThat(DoubleActors.find(cycles.all())).as("double-owned cycles").isEmpty();
    }

    /** A replica as {@code runbook run --shards --member MEMBER} makes it, at the tests' Lease timing. */
    private OperatorRuntime runtime(KubernetesClient client, String member) {
        OperatorMetrics own = OperatorMetrics.create();
        metrics.put(member, own);
        var lease = new OperatorRuntime.Lease(system, "runbook-operator", member, TestCluster.LEADER_ELECTION,
                LeaderElection.leaseClient(client, TestCluster.LEADER_ELECTION));
        var settings = new OperatorRuntime.Settings(List.of(greeter), Set.of(apps), null, lease, Policy.DEFAULT,
                new OperatorRuntime.Presence(system, member), ReconcileThreads.byDefault(), new OperatorRuntime.Shards(member, LOOP));
        OperatorRuntime runtime = new OperatorRuntime(client, settings, Clock.systemUTC(), own, cycles.of(member));
        closing.add(own);
        closing.add(runtime);
        return runtime;
    }

    private String leaseHolder(KubernetesClient client) {
        var lease = client.leases().inNamespace(system).withName("runbook-operator").get();
        return lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    }
}
