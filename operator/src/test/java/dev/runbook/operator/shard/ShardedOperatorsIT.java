package dev.runbook.operator.shard;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.leader.LeaderElection;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two sharded operators (each runs the primaries labelled with its member name, acknowledging drains)
 * with the sharder's loop in the leader, on 20 primaries (WebApps) of the greeter bundle: one replica
 * takes all; when a second joins, the primaries that are its on the ring move through a drain that the
 * first's reconciler acknowledges, and each primary is owned by exactly one replica; after a change to every primary each is reconciled by its
 * owner alone; when one replica stops the other takes all; and no two replicas' cycles on one primary
 * ever overlap ({@link DoubleActors}).
 */
@RunbookIT(crds = "src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml")
class ShardedOperatorsIT {
    private static final String API_VERSION = ShardedWebApps.API_VERSION;
    private static final String KIND = ShardedWebApps.KIND;
    static CompiledBundle greeter;

    @TestNamespace("sharded")
    String namespace;

    /** Every cycle any replica ran: member, primary, from its decision's start to its record. */
    final CycleRecords cycles = new CycleRecords("test.runbook.dev", KIND);

    @BeforeAll
    static void compile() {
        greeter = BundleCompiler.compile(BundleLoader.load(Path.of("src/test/resources/bundles/greeter")));
    }

    @Test
    void eachPrimaryIsOwnedAndReconciledByExactlyOneReplica(KubernetesClient client) {
        ShardedWebApps apps = new ShardedWebApps(client, namespace);
        apps.create(20, Set.of("replica-a", "replica-b"));
        try (ShardReplica a = replica(client, "replica-a")) {
            await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(apps.all()).hasSize(20).allSatisfy(p -> {
                assertThat(ShardedWebApps.owner(p)).isEqualTo("replica-a");
                assertThat(ShardedWebApps.status(p, "seen")).isEqualTo("1");
            }));
            // b joins: the primaries that are b's on the ring are drained from a, handed back by a's reconciler, then b's.
            try (ShardReplica b = replica(client, "replica-b")) {
                HashRing ring = HashRing.of(Set.of("replica-a", "replica-b"));
                await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(apps.all()).hasSize(20).allSatisfy(p -> {
                    assertThat(ShardedWebApps.owner(p)).isEqualTo(ring.ownerOf(apps.keyOf(p)).orElseThrow());
                    assertThat(p.getMetadata().getLabels()).doesNotContainKey(ShardLabels.DRAIN);
                    assertThat(ShardedWebApps.status(p, "seen")).isEqualTo("1");
                }));
                assertThat(apps.owners().values()).contains("replica-a", "replica-b");

                Instant bumped = Instant.now();
                apps.setCounter("2");
                await().atMost(TestCluster.CONVERGE).untilAsserted(() ->
                        assertThat(apps.all()).allSatisfy(p -> assertThat(ShardedWebApps.status(p, "seen")).isEqualTo("2")));
                Map<String, String> owners = apps.owners();
                assertThat(cycles.membersSince(bumped)).as("after the change, each primary's cycles are its owner's alone")
                        .allSatisfy((primary, members) -> assertThat(members).containsExactly(owners.get(primary)));
            }
            // b stopped (it stood down, then released its Leases): a takes all.
            await().atMost(TestCluster.CONVERGE).untilAsserted(() ->
                    assertThat(apps.owners().values()).hasSize(20).containsOnly("replica-a"));
            apps.setCounter("3");
            await().atMost(TestCluster.CONVERGE).untilAsserted(() ->
                    assertThat(apps.all()).allSatisfy(p -> assertThat(ShardedWebApps.status(p, "seen")).isEqualTo("3")));
        }
        assertThat(cycles.all()).isNotEmpty();
        assertThat(DoubleActors.find(cycles.all())).as("double-owned cycles").isEmpty();
    }

    /** A replica that runs a sharded operator while it holds its member Lease (and the sharder's loop while it leads). */
    private ShardReplica replica(KubernetesClient client, String name) {
        RunbookOperator[] operator = new RunbookOperator[1];
        return new ShardReplica(client, namespace, name, API_VERSION, KIND, new LeaderElection.Candidate() {
            @Override
            public void lead() {
                operator[0] = RunbookOperator.builder(client).bundles(List.of(greeter)).namespaces(Set.of(namespace))
                        .shardMember(name).listener(cycles.of(name)).build();
                operator[0].start();
            }

            @Override
            public void standBy() {
                if (operator[0] != null) operator[0].close();
                operator[0] = null;
            }
        });
    }
}
