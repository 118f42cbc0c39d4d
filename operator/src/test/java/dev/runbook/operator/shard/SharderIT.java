package dev.runbook.operator.shard;

import dev.runbook.operator.testkit.RunbookIT;
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
        for (int i = 0; i < 20; i++) {
            client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).resource(new GenericKubernetesResourceBuilder()
                    .withApiVersion(API_VERSION).withKind(KIND).withNewMetadata().withName("greeter-" + i).endMetadata()
                    .addToAdditionalProperties("spec", Map.of("greeting", "hello")).build()).create();
        }
    }

    @Test
    void everyPrimaryGetsItsRingOwnerAndASecondPassChangesNothing() {
        assertThat(sharder.pass(Set.of("replica-a", "replica-b"))).containsExactly(Map.entry(LabelPatches.Outcome.WRITTEN, 20));
        HashRing ring = HashRing.of(Set.of("replica-a", "replica-b"));
        assertThat(primaries()).allSatisfy(primary -> assertThat(primary.getMetadata().getLabels())
                .containsEntry(ShardLabels.SHARD, ring.ownerOf(keyOf(primary)).orElseThrow())
                .doesNotContainKey(ShardLabels.DRAIN));
        assertThat(shares()).containsOnlyKeys("replica-a", "replica-b");
        assertThat(sharder.pass(Set.of("replica-a", "replica-b"))).isEmpty();
    }

    @Test
    void aJoiningMemberGetsPrimariesOnlyAfterTheirOwnersAcknowledge() {
        sharder.pass(Set.of("replica-a", "replica-b"));
        Set<String> three = Set.of("replica-a", "replica-b", "replica-c");
        int drained = sharder.pass(three).getOrDefault(LabelPatches.Outcome.WRITTEN, 0);
        assertThat(drained).as("some primaries move to the new member").isPositive();
        assertThat(shares()).doesNotContainKey("replica-c");
        assertThat(sharder.pass(three)).as("drains wait for their acknowledgement").isEmpty();

        for (GenericKubernetesResource primary : primaries()) {
            ShardLabels labels = ShardLabels.of(keyOf(primary), primary.getMetadata().getLabels());
            if (OwnerSide.of(labels.shard(), labels) == OwnerSide.ACKNOWLEDGE_DRAIN) {
                assertThat(patches.acknowledgeDrain(primary)).isEqualTo(LabelPatches.Outcome.WRITTEN);
            }
        }
        assertThat(sharder.pass(three)).containsExactly(Map.entry(LabelPatches.Outcome.WRITTEN, drained));
        assertThat(shares().get("replica-c")).isEqualTo(drained);
        assertThat(sharder.pass(three)).isEmpty();
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
