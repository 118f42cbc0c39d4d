package dev.runbook.benchmarks;

import dev.runbook.operator.shard.DoubleActors;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ShardJournalsTest {
    private static final Instant KILL = Instant.parse("2026-12-05T10:00:00Z");

    @Test
    void theTakeoverIsTheLatestFirstCycleByAnotherOnThePrimariesTheKilledOneHeld() {
        var cycles = List.of(
                cycle("a", "pg-1", -30, -29), cycle("a", "pg-2", -5, -4), cycle("b", "pg-3", -3, -2),
                cycle("b", "pg-1", 17, 18), cycle("c", "pg-2", 21, 22), cycle("b", "pg-2", 25, 26), cycle("b", "pg-3", 40, 41));
        assertThat(ShardJournals.takeover(cycles, "a", KILL, null)).isEqualTo("takeover 21.0 s (first 17.0 s, median 17.0 s; 2 primaries of a, 0 not taken over)");
    }

    @Test
    void aPrimaryNobodyActedOnSinceIsCounted() {
        var cycles = List.of(cycle("a", "pg-1", -30, -29), cycle("a", "pg-2", -5, -4), cycle("b", "pg-1", 17, 18));
        assertThat(ShardJournals.takeover(cycles, "a", KILL, null)).isEqualTo("takeover 17.0 s (first 17.0 s, median 17.0 s; 2 primaries of a, 1 not taken over)");
    }

    @Test
    void theNotReadyPrimarysOwnTakeoverIsReportedBesideTheShares() {
        var cycles = List.of(cycle("a", "pg-1", -30, -29), cycle("a", "pg-2", -5, -4), cycle("a", "pg-3", -5, -4),
                cycle("b", "pg-1", 30, 31), cycle("b", "pg-2", 17, 18), cycle("b", "pg-3", 40, 41));
        assertThat(ShardJournals.takeover(cycles, "a", KILL, "pg-2"))
                .isEqualTo("takeover 40.0 s (first 17.0 s, median 30.0 s, the not-Ready pg-2 17.0 s; 3 primaries of a, 0 not taken over)");
        assertThat(ShardJournals.takeover(List.of(cycle("a", "pg-1", -5, -4), cycle("b", "pg-2", 3, 4), cycle("a", "pg-2", -9, -8)), "a", KILL, "pg-1"))
                .isEqualTo("takeover 3.0 s (first 3.0 s, median 3.0 s, the not-Ready pg-1 not taken over; 2 primaries of a, 1 not taken over)");
    }

    private static DoubleActors.Cycle cycle(String member, String primary, int from, int to) {
        return new DoubleActors.Cycle(member, primary, KILL.plusSeconds(from), KILL.plusSeconds(to));
    }
}
