package dev.runbook.operator.shard;

import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.SpreadNames;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The sharder's passes and an owner's acknowledgements on an API server: 20 primaries, 2 then 3 members. */
@RunbookIT(crds = "src/test/resources/bundles/greeter/crds/greeters.test.runbook.dev.yaml")
class SharderIT {
    private static final String API_VERSION = "test.runbook.dev/v1";
    private static final String KIND = "Greeter";

    @TestNamespace("sharder")
    String namespace;

    KubernetesClient client;
    Sharder sharder;
    LabelPatches patches;

    @BeforeEach
    void twentyPrimaries(KubernetesClient client) {
        this.client = client;
        sharder = new Sharder(client, API_VERSION, KIND, Set.of(namespace));
        patches = new LabelPatches(client, API_VERSION, KIND);
        // Both rings the tests form give each member some: a joining replica-c has primaries to take.
        for (String name : SpreadNames.over("test.runbook.dev", KIND, namespace, "greeter", 20,
                List.of(Set.of("replica-a", "replica-b"), Set.of("replica-a", "replica-b", "replica-c")))) {
            client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).resource(new GenericKubernetesResourceBuilder()
                    .withApiVersion(API_VERSION).withKind(KIND).withNewMetadata().withName(name).endMetadata()
                    .addToAdditionalProperties("spec", Map.of("greeting", "hello")).build()).create();
        }
    }

    @Test
    void everyPrimaryGetsItsRingOwnerAndAFurtherPassWritesNothing() {
        Set<String> two = Set.of("replica-a", "replica-b");
        HashRing ring = HashRing.of(two);
        // The sharder lists from the API server's watch cache, which may lag a write by a moment: pass until done.
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            sharder.pass(two);
            assertThat(primaries()).hasSize(20).allSatisfy(primary -> assertThat(primary.getMetadata().getLabels())
                    .containsEntry(ShardLabels.SHARD, ring.ownerOf(keyOf(primary)).orElseThrow())
                    .doesNotContainKey(ShardLabels.DRAIN));
        });
        assertThat(shares()).containsOnlyKeys("replica-a", "replica-b");
        assertThat(sharder.pass(two).wrote()).as("a stale view's writes are refused, a fresh one has none").isFalse();
    }

    @Test
    void aJoiningMemberGetsPrimariesOnlyAfterTheirOwnersAcknowledge() {
        Set<String> two = Set.of("replica-a", "replica-b");
        await().atMost(TestCluster.CONVERGE).until(() -> !sharder.pass(two).unsettled() && shares().size() == 2);
        Set<String> three = Set.of("replica-a", "replica-b", "replica-c");
        await().atMost(TestCluster.CONVERGE).until(() -> {
            Sharder.Pass pass = sharder.pass(three);
            return !pass.wrote() && pass.draining() > 0 && pass.draining() == draining().size();
        });
        List<GenericKubernetesResource> drained = draining();
        assertThat(shares()).as("the new member has none before the acknowledgements").doesNotContainKey("replica-c");
        assertThat(shares().values().stream().mapToInt(Integer::intValue).sum())
                .as("nobody acts on a draining primary").isEqualTo(20 - drained.size());

        for (GenericKubernetesResource primary : drained) {
            ShardLabels labels = ShardLabels.of(keyOf(primary), primary.getMetadata().getLabels());
            assertThat(OwnerSide.of(labels.shard(), labels)).isEqualTo(OwnerSide.ACKNOWLEDGE_DRAIN);
            assertThat(patches.acknowledgeDrain(primary)).isEqualTo(LabelPatches.Outcome.WRITTEN);
        }
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            sharder.pass(three);
            assertThat(shares().get("replica-c")).isEqualTo(drained.size());
            assertThat(shares().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(20);
        });
    }

    @Test
    void aWriteDecidedFromAStaleViewIsRefused() {
        sharder.pass(Set.of("replica-a"));
        GenericKubernetesResource seen = primaries().get(0);
        assertThat(patches.apply(seen, new LabelChange.Drain(keyOf(seen), "replica-a"))).isEqualTo(LabelPatches.Outcome.WRITTEN);
        // The primary changed since it was seen (here: drained); a sharder still holding that view must not re-label it.
        assertThat(patches.apply(seen, new LabelChange.Assign(keyOf(seen), "replica-b"))).isEqualTo(LabelPatches.Outcome.STALE);
    }

    private List<GenericKubernetesResource> primaries() {
        return client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).list().getItems();
    }

    private List<GenericKubernetesResource> draining() {
        return primaries().stream().filter(p -> p.getMetadata().getLabels() != null
                && p.getMetadata().getLabels().containsKey(ShardLabels.DRAIN)).toList();
    }

    private Map<String, Integer> shares() {
        Map<String, Integer> shares = new HashMap<>();
        for (GenericKubernetesResource primary : primaries()) {
            String owner = primary.getMetadata().getLabels() == null ? null : primary.getMetadata().getLabels().get(ShardLabels.SHARD);
            if (owner != null && !primary.getMetadata().getLabels().containsKey(ShardLabels.DRAIN)) shares.merge(owner, 1, Integer::sum);
        }
        return shares;
    }

    private String keyOf(GenericKubernetesResource primary) {
        return ShardLabels.keyOf("test.runbook.dev", KIND, namespace, primary.getMetadata().getName());
    }
}
