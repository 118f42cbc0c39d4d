package dev.runbook.operator.shard;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class AssignmentTest {
    private static final String KEY = ShardLabels.keyOf("postgres.runbook.dev", "PostgresCluster", "default", "pg-0");

    @Test
    void anUnassignedPrimaryGoesToItsRingOwner() {
        String owner = HashRing.of(Set.of("a", "b")).ownerOf(KEY).orElseThrow();
        assertThat(Assignment.decide(Set.of("a", "b"), List.of(ShardLabels.of(KEY, Map.of()))))
                .containsExactly(new LabelChange.Assign(KEY, owner));
    }

    @Test
    void withNoLiveMemberNothingIsAssigned() {
        assertThat(Assignment.decide(Set.of(), List.of(ShardLabels.of(KEY, Map.of()), new ShardLabels(KEY, "dead", false))))
                .isEmpty();
    }

    @Test
    void aLiveOwnerThatIsNotTheRingOwnerIsDrainedNotOverwritten() {
        String owner = HashRing.of(Set.of("a", "b")).ownerOf(KEY).orElseThrow();
        String other = owner.equals("a") ? "b" : "a";
        assertThat(Assignment.decide(Set.of("a", "b"), List.of(new ShardLabels(KEY, other, false))))
                .containsExactly(new LabelChange.Drain(KEY, other));
        assertThat(Assignment.decide(Set.of("a", "b"), List.of(new ShardLabels(KEY, other, true))))
                .as("a drain in flight waits for its acknowledgement").isEmpty();
    }

    @Test
    void aDrainingPrimaryOfADeadOwnerIsReassignedAtOnce() {
        assertThat(Assignment.decide(Set.of("a"), List.of(new ShardLabels(KEY, "b", true))))
                .containsExactly(new LabelChange.Assign(KEY, "a"));
    }

    @Test
    void theOwnerActsOnlyOnItsOwnUndrainedPrimaries() {
        assertThat(OwnerSide.of("a", new ShardLabels(KEY, "a", false))).isEqualTo(OwnerSide.ACT);
        assertThat(OwnerSide.of("a", new ShardLabels(KEY, "a", true))).isEqualTo(OwnerSide.ACKNOWLEDGE_DRAIN);
        assertThat(OwnerSide.of("a", new ShardLabels(KEY, "b", false))).isEqualTo(OwnerSide.LEAVE);
        assertThat(OwnerSide.of("a", new ShardLabels(KEY, null, false))).isEqualTo(OwnerSide.LEAVE);
    }

    @Test
    void twoMembersShareTwentyPrimariesOnePassEach() {
        var world = new ShardedPrimaries(20);
        world.join("a");
        world.join("b");
        assertThat(world.settle()).as("one pass assigns, the next finds nothing").isEqualTo(2);
        assertThat(world.actors()).hasSize(20);
        assertThat(world.shares().keySet()).containsExactlyInAnyOrder("a", "b");
        assertThat(world.drains).isZero();
        assertThat(world.violations()).isEmpty();
    }

    @Test
    void aJoiningMemberGetsItsShareOnlyThroughDrains() {
        var world = new ShardedPrimaries(300);
        world.join("a");
        world.join("b");
        world.settle();
        Map<String, String> before = world.actors();
        world.join("c");
        world.sharderPass();
        assertThat(world.actors()).as("while draining, the moving primaries have no actor").hasSize(300 - world.drains);
        world.settle();
        Map<String, String> after = world.actors();
        assertThat(after).hasSize(300);
        long moved = before.keySet().stream().filter(key -> !before.get(key).equals(after.get(key))).count();
        assertThat(moved).as("every moved primary was drained first").isEqualTo(world.drains);
        assertThat(after.entrySet()).filteredOn(e -> !before.get(e.getKey()).equals(e.getValue()))
                .allSatisfy(e -> assertThat(e.getValue()).isEqualTo("c"));
        assertThat(world.shares().get("c")).isBetween(60, 140); // 1/3 of 300 = 100
        assertThat(world.violations()).isEmpty();
    }

    @Test
    void aLeavingOrDeadMembersPrimariesAreReassignedInOnePassWithoutDrains() {
        var world = new ShardedPrimaries(300);
        world.join("a");
        world.join("b");
        world.join("c");
        world.settle();
        Map<String, String> before = world.actors();
        world.gone("b");
        int drainsBefore = world.drains;
        world.sharderPass();
        Map<String, String> after = world.actors();
        assertThat(after).as("one pass: every primary has a live actor again").hasSize(300);
        assertThat(world.drains).isEqualTo(drainsBefore);
        assertThat(after.entrySet()).filteredOn(e -> !before.get(e.getKey()).equals(e.getValue()))
                .allSatisfy(e -> assertThat(before.get(e.getKey())).isEqualTo("b"));
        assertThat(world.violations()).isEmpty();
    }

    @Test
    void flappingMembershipNeverGivesAPrimaryTwoActorsAndSettlesOnTheRing() {
        var world = new ShardedPrimaries(200);
        world.join("a");
        world.join("b");
        world.settle();
        // c joins and is gone before the drains are acknowledged; then it comes back, and b dies mid-drain.
        world.join("c");
        world.sharderPass();
        world.gone("c");
        world.sharderPass();
        world.ownersAcknowledge();
        world.join("c");
        world.sharderPass();
        world.gone("b");
        world.sharderPass();
        world.actors();
        world.settle();
        HashRing ring = HashRing.of(Set.of("a", "c"));
        assertThat(world.labels()).allSatisfy(primary -> {
            assertThat(primary.shard()).isEqualTo(ring.ownerOf(primary.key()).orElseThrow());
            assertThat(primary.draining()).isFalse();
        });
        assertThat(world.violations()).isEmpty();
    }
}
