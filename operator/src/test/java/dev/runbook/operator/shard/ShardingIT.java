package dev.runbook.operator.shard;

import dev.runbook.operator.leader.LeaderElection;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.SpreadNames;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

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

    @TestNamespace("sharding")
    String namespace;

    @Test
    void twoReplicasOwnEveryPrimaryOnceAndTheOneLeftTakesAllWhenTheOtherStops(KubernetesClient client) {
        for (String name : SpreadNames.over("test.runbook.dev", KIND, namespace, "greeter", 20, List.of(Set.of("replica-a", "replica-b")))) {
            client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).resource(new GenericKubernetesResourceBuilder()
                    .withApiVersion(API_VERSION).withKind(KIND).withNewMetadata().withName(name).endMetadata().build()).create();
        }
        LabelPatches patches = new LabelPatches(client, API_VERSION, KIND);
        try (ShardReplica a = replica(client, "replica-a")) {
            await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(shares(client)).containsExactly(Map.entry("replica-a", 20)));
            try (ShardReplica b = replica(client, "replica-b")) {
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

    private ShardReplica replica(KubernetesClient client, String name) {
        return new ShardReplica(client, namespace, name, API_VERSION, KIND, new LeaderElection.Candidate() {
            @Override public void lead() {}
            @Override public void standBy() {}
        });
    }
}
