package dev.runbook.operator.shard;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HashRingTest {
    private static final List<String> KEYS = IntStream.range(0, 3000)
            .mapToObj(i -> ShardLabels.keyOf("postgres.runbook.dev", "PostgresCluster", "ns-" + (i % 7), "pg-" + i)).toList();

    @Test
    void theSameMembersInAnyOrderAssignEveryKeyAlike() {
        HashRing one = HashRing.of(List.of("runbook-a", "runbook-b", "runbook-c"));
        HashRing other = HashRing.of(List.of("runbook-c", "runbook-a", "runbook-b"));
        for (String key : KEYS) assertThat(other.ownerOf(key)).isEqualTo(one.ownerOf(key));
    }

    @Test
    void anEmptyRingOwnsNothing() {
        assertThat(HashRing.of(List.of()).ownerOf("any")).isEmpty();
    }

    @Test
    void aMemberWithoutANameIsRefused() {
        assertThatThrownBy(() -> HashRing.of(List.of("runbook-a", " "))).hasMessageContaining("needs a name");
    }

    @Test
    void sharesAreNearEven() {
        Map<String, Integer> shares = shares(HashRing.of(List.of("runbook-a", "runbook-b", "runbook-c")));
        // 3000 keys, 3 members: 1000 each if perfectly even; 100 points per member keep each within 25%.
        assertThat(shares.values()).allSatisfy(count -> assertThat(count).isBetween(750, 1250));
        assertThat(shares.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(KEYS.size());
    }

    @Test
    void aJoiningMemberTakesAboutItsShareAndNothingElseMoves() {
        HashRing before = HashRing.of(List.of("runbook-a", "runbook-b", "runbook-c"));
        HashRing after = HashRing.of(List.of("runbook-a", "runbook-b", "runbook-c", "runbook-d"));
        int moved = 0;
        for (String key : KEYS) {
            if (!before.ownerOf(key).equals(after.ownerOf(key))) {
                moved++;
                assertThat(after.ownerOf(key)).as("a key that moves moves to the new member").contains("runbook-d");
            }
        }
        // Ideal: 1/4 of 3000 = 750 (modulo hashing, over 1500 would mean the ring is not consistent).
        assertThat(moved).isBetween(500, 1000);
    }

    @Test
    void aLeavingMembersKeysAloneMove() {
        HashRing before = HashRing.of(List.of("runbook-a", "runbook-b", "runbook-c"));
        HashRing after = HashRing.of(List.of("runbook-a", "runbook-c"));
        int moved = 0;
        for (String key : KEYS) {
            if (!before.ownerOf(key).equals(after.ownerOf(key))) {
                moved++;
                assertThat(before.ownerOf(key)).as("only the leaver's keys move").contains("runbook-b");
            } else {
                assertThat(before.ownerOf(key)).isNotEqualTo(java.util.Optional.of("runbook-b"));
            }
        }
        assertThat(moved).isEqualTo(shares(before).get("runbook-b"));
    }

    private static Map<String, Integer> shares(HashRing ring) {
        Map<String, Integer> shares = new HashMap<>();
        for (String key : KEYS) shares.merge(ring.ownerOf(key).orElseThrow(), 1, Integer::sum);
        return shares;
    }
}
