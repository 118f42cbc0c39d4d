package dev.runbook.operator.shard;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DoubleActorsTest {
    private static final Instant T = Instant.parse("2026-12-05T07:00:00Z");

    @Test
    void aHandoverWhereTheNewOwnerStartsAfterTheOldOneEndedIsNoOverlap() {
        var cycles = List.of(cycle("a", "pg-0", 0, 100), cycle("a", "pg-0", 200, 300), cycle("b", "pg-0", 301, 400));
        assertThat(DoubleActors.find(cycles)).isEmpty();
    }

    @Test
    void cyclesOfTwoMembersOnOnePrimaryAtOnceAreAnOverlap() {
        var late = cycle("a", "pg-0", 200, 350);
        var early = cycle("b", "pg-0", 300, 400);
        assertThat(DoubleActors.find(List.of(cycle("a", "pg-0", 0, 100), late, early)))
                .containsExactly(new DoubleActors.Overlap(late, early));
    }

    @Test
    void anOverlapIsFoundPastCyclesInBetween() {
        var longCycle = cycle("a", "pg-0", 0, 1000);
        var inside = cycle("b", "pg-0", 900, 950);
        assertThat(DoubleActors.find(List.of(longCycle, cycle("a", "pg-0", 100, 200), inside)))
                .containsExactly(new DoubleActors.Overlap(longCycle, inside));
    }

    @Test
    void oneMembersOwnCyclesAndOtherPrimariesNeverOverlap() {
        var cycles = List.of(cycle("a", "pg-0", 0, 100), cycle("a", "pg-0", 50, 150), cycle("b", "pg-1", 0, 100));
        assertThat(DoubleActors.find(cycles)).isEmpty();
    }

    @Test
    void aCycleThatEndsBeforeItStartsIsRefused() {
        assertThatThrownBy(() -> cycle("a", "pg-0", 10, 5)).hasMessageContaining("ends after it starts");
    }

    private static DoubleActors.Cycle cycle(String member, String primary, long startMillis, long endMillis) {
        return new DoubleActors.Cycle(member, primary, T.plusMillis(startMillis), T.plusMillis(endMillis));
    }
}
