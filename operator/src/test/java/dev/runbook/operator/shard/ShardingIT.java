package dev.runbook.operator.shard;

import dev.runbook.operator.leader.LeaderElection;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The pieces together, with real Leases and real time: replicas that each hold a member Lease and stand
 * for the leader Lease, whose holder runs the sharder's loop; 20 primaries. The owners' acknowledgements
 * (the reconciler's part, not wired yet) are played by the test with {@link OwnerSide} and
 * {@link LabelPatches}, as the reconciler will make them.
 */
@RunbookIT(crds = "src/test/resources/bundles/greeter/crds/greeters.test.runbook.dev.yaml")
class ShardingIT {
    private static final String API_VERSION = "test.runbook.dev/v1";
    private static final String KIND = "Greeter";
    private static final LeaderElection.Timing LEASES = TestCluster.LEADER_ELECTION;
    private static final ShardingLoop.Timing LOOP = new ShardingLoop.Timing(Duration.ofMillis(500), Duration.ofSeconds(30));

    @TestNamespace("sharding")
    String namespace;

    @Test
    void twoReplicasOwnEveryPrimaryOnceAndTheOneLeftTakesAllWhenTheOtherStops(KubernetesClient client) {
        for (int i = 0; i < 20; i++) {
            client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).resource(new GenericKubernetesResourceBuilder()
                    .withApiVersion(API_VERSION).withKind(KIND).withNewMetadata().withName("greeter-" + i).endMetadata().build()).create();
        }
        LabelPatches patches = new LabelPatches(client, API_VERSION, KIND);
        try (Replica a = new Replica(client, "replica-a")) {
            await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(shares(client)).containsExactly(Map.entry("replica-a", 20)));
            try (Replica b = new Replica(client, "replica-b")) {
                await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
                    acknowledgeDrains(client, patches, Set.of("replica-a", "replica-b"));
                    Map<String, Integer> shares = shares(client);
                    assertThat(shares).containsOnlyKeys("replica-a", "replica-b");
                    assertThat(shares.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(20);
                });
                HashRing ring = HashRing.of(Set.of("replica-a", "replica-b"));
                assertThat(primaries(client)).allSatisfy(p -> assertThat(p.getMetadata().getLabels()).containsEntry(ShardLabels.SHARD,
                        ring.ownerOf(ShardLabels.keyOf("test.runbook.dev", KIND, namespace, p.getMetadata().getName())).orElseThrow()));
            }
            // b released its member Lease on close: its primaries go back to a without a drain.
            await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(shares(client)).containsExactly(Map.entry("replica-a", 20)));
        }
    }

    /** What each replica's reconciler will do on a drain: acknowledge it (the test plays it for every live member). */
    private void acknowledgeDrains(KubernetesClient client, LabelPatches patches, Set<String> members) {
        for (GenericKubernetesResource primary : primaries(client)) {
            ShardLabels labels = ShardLabels.of("", primary.getMetadata().getLabels());
            for (String member : members) {
                if (OwnerSide.of(member, labels) == OwnerSide.ACKNOWLEDGE_DRAIN) patches.acknowledgeDrain(primary);
            }
        }
    }

    /** How many primaries each member acts on: labelled with it and not draining. */
    private Map<String, Integer> shares(KubernetesClient client) {
        Map<String, Integer> shares = new HashMap<>();
        for (GenericKubernetesResource primary : primaries(client)) {
            ShardLabels labels = ShardLabels.of("", primary.getMetadata().getLabels());
            if (labels.shard() != null && OwnerSide.of(labels.shard(), labels) == OwnerSide.ACT) shares.merge(labels.shard(), 1, Integer::sum);
        }
        return shares;
    }

    private List<GenericKubernetesResource> primaries(KubernetesClient client) {
        return client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).list().getItems();
    }

    /** One replica's sharding side: its member Lease, and the sharder's loop while it holds the leader Lease. */
    private final class Replica implements AutoCloseable {
        private final LeaderElection member;
        private final LeaderElection leader;

        Replica(KubernetesClient client, String name) {
            Membership membership = new Membership(client, namespace, LEASES, Clock.systemUTC());
            ShardingLoop loop = new ShardingLoop(membership, List.of(new Sharder(client, API_VERSION, KIND, Set.of(namespace))),
                    LOOP, Clock.systemUTC());
            member = membership.memberLease(LeaderElection.leaseClient(client, LEASES), name, new LeaderElection.Candidate() {
                @Override public void lead() {}
                @Override public void standBy() {}
            });
            leader = new LeaderElection(LeaderElection.leaseClient(client, LEASES), namespace, "runbook-operator", name, LEASES,
                    new LeaderElection.Candidate() {
                        @Override public void lead() { loop.start(); }
                        @Override public void standBy() { loop.close(); }
                    });
            member.start();
            leader.start();
        }

        @Override
        public void close() {
            leader.close();
            member.close();
        }
    }
}
