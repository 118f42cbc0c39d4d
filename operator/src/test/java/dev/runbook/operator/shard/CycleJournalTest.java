package dev.runbook.operator.shard;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.rules.fact.Primary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CycleJournalTest {
    private static final Instant T = Instant.parse("2026-12-05T09:00:00Z");
    private static final Primary PG_0 = new Primary(Map.of("apiVersion", "postgres.runbook.dev/v1alpha1", "kind", "PostgresCluster",
            "metadata", Map.of("name", "pg-0", "namespace", "db")));
    private static final String PG_0_KEY = "postgres.runbook.dev/PostgresCluster/db/pg-0";

    @TempDir
    Path dir;

    @Test
    void eachCycleIsALineFromItsDecisionsStartToItsRecord() {
        Path file = dir.resolve("a.jsonl");
        TickingClock clock = new TickingClock(T, 0, 100, 300, 350);
        try (CycleJournal journal = CycleJournal.open(file, "replica-a", clock)) {
            journal.decisionStarted(PG_0);
            journal.cycleRecorded(PG_0, report());
            journal.decisionStarted(PG_0);
            journal.cycleRecorded(PG_0, report());
        }
        assertThat(CycleJournal.read(file)).containsExactly(
                new DoubleActors.Cycle("replica-a", PG_0_KEY, T, T.plusMillis(100)),
                new DoubleActors.Cycle("replica-a", PG_0_KEY, T.plusMillis(300), T.plusMillis(350)));
    }

    @Test
    void aCycleThatStoppedBeforeDecidingIsAnInstant() {
        Path file = dir.resolve("a.jsonl");
        try (CycleJournal journal = CycleJournal.open(file, "replica-a", new TickingClock(T, 5))) {
            journal.cycleRecorded(PG_0, report());
        }
        assertThat(CycleJournal.read(file)).containsExactly(
                new DoubleActors.Cycle("replica-a", PG_0_KEY, T.plusMillis(5), T.plusMillis(5)));
    }

    @Test
    void theFilesOfTwoReplicasShowTheirOverlappingCycles() {
        Path a = dir.resolve("a.jsonl");
        Path b = dir.resolve("b.jsonl");
        try (CycleJournal journal = CycleJournal.open(a, "replica-a", new TickingClock(T, 0, 200))) {
            journal.decisionStarted(PG_0);
            journal.cycleRecorded(PG_0, report());
        }
        try (CycleJournal journal = CycleJournal.open(b, "replica-b", new TickingClock(T, 150, 400))) {
            journal.decisionStarted(PG_0);
            journal.cycleRecorded(PG_0, report());
        }
        List<DoubleActors.Cycle> all = new ArrayList<>(CycleJournal.read(a));
        all.addAll(CycleJournal.read(b));
        assertThat(DoubleActors.find(all)).hasSize(1);
    }

    @Test
    void aLastLineCutShortByAKilledProcessIsSkippedAndABrokenLineBeforeItIsRefused() throws Exception {
        Path file = dir.resolve("a.jsonl");
        try (CycleJournal journal = CycleJournal.open(file, "replica-a", new TickingClock(T, 0, 10))) {
            journal.decisionStarted(PG_0);
            journal.cycleRecorded(PG_0, report());
        }
        Files.writeString(file, "{\"member\":\"replica-a\",\"prim", StandardOpenOption.APPEND);
        assertThat(CycleJournal.read(file)).hasSize(1);

        Files.writeString(file, "\n{\"member\":\"replica-a\"}\n", StandardOpenOption.APPEND);
        assertThatThrownBy(() -> CycleJournal.read(file)).hasMessageStartingWith(file + ":2: not a cycle record");
    }

    @Test
    void aMemberNameThatIsNoLabelValueIsRefused() {
        assertThatThrownBy(() -> CycleJournal.open(dir.resolve("x.jsonl"), "no/label", Clock.systemUTC()))
                .hasMessageContaining("is not a label value");
    }

    private static CycleReport report() {
        return new CycleReport("c-1", "postgres-cluster", "0.2.0", BundleSpec.Mode.ENFORCE, false, null, List.of(), null, null,
                Duration.ZERO);
    }

    /** Answers the given milliseconds after {@code start}, one per call. */
    private static final class TickingClock extends Clock {
        private final Instant start;
        private final long[] millis;
        private int next;

        TickingClock(Instant start, long... millis) {
            this.start = start;
            this.millis = millis;
        }

        @Override public Instant instant() { return start.plusMillis(millis[next++]); }
        @Override public ZoneId getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(ZoneId zone) { throw new UnsupportedOperationException("UTC only"); }
    }
}
