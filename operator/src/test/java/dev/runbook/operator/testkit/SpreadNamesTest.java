package dev.runbook.operator.testkit;

import dev.runbook.operator.shard.HashRing;
import dev.runbook.operator.shard.ShardLabels;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SpreadNamesTest {
    static final Set<String> TWO = Set.of("replica-a", "replica-b");
    static final Set<String> THREE = Set.of("replica-a", "replica-b", "replica-c");

    @Test
    void everyMemberOfEveryRingOwnsANameInEveryNamespace() {
        for (int n = 0; n < 2_000; n++) {
            String namespace = "secondaries-" + n;
            List<String> names = SpreadNames.over("test.runbook.dev", "WebApp", namespace, "app", 10, List.of(TWO, THREE));
            assertThat(names).hasSize(10).doesNotHaveDuplicates();
            for (Set<String> members : List.of(TWO, THREE)) {
                assertThat(owners(members, namespace, names)).as(namespace).containsExactlyInAnyOrderElementsOf(members);
            }
        }
    }

    @Test
    void aNamespaceWhoseFirstTenNamesAllFallToOneMemberGetsOthers() {
        String namespace = IntStream.range(0, 100_000).mapToObj(n -> "secondaries-" + n)
                .filter(ns -> owners(TWO, ns, IntStream.range(0, 10).mapToObj(i -> "app-" + i).toList()).size() == 1)
                .findFirst().orElseThrow();
        List<String> names = SpreadNames.over("test.runbook.dev", "WebApp", namespace, "app", 10, List.of(TWO));
        assertThat(owners(TWO, namespace, names)).containsExactlyInAnyOrderElementsOf(TWO);
        assertThat(SpreadNames.over("test.runbook.dev", "WebApp", namespace, "app", 10, List.of(TWO))).as("the same each time")
                .isEqualTo(names);
    }

    @Test
    void fewerNamesThanMembersIsRefused() {
        assertThatThrownBy(() -> SpreadNames.over("test.runbook.dev", "WebApp", "ns", "app", 2, List.of(THREE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3 needed");
    }

    private static Set<String> owners(Set<String> members, String namespace, List<String> names) {
        HashRing ring = HashRing.of(members);
        return names.stream().map(name -> ring.ownerOf(ShardLabels.keyOf("test.runbook.dev", "WebApp", namespace, name)).orElseThrow())
                .collect(Collectors.toSet());
    }
}
