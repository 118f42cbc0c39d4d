package dev.runbook.benchmarks;

import dev.runbook.operator.shard.CycleJournal;
import dev.runbook.operator.shard.DoubleActors;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What benchmarks/shards/run reads from the replicas' cycle journals ({@link CycleJournal}, one file per
 * replica): the double-owned cycles ({@link DoubleActors}), and, given a replica killed at an instant, how
 * long until each primary it held was acted on by another. The primaries it held are those whose last
 * cycle before the kill was its own; the takeover is the latest of their first cycles by another member
 * after the kill (from the kill to that cycle's start), with the first and the median of those first cycles
 * (the sharder moves a share over tens of seconds at N=1000, not all at once). Prints two lines:
 * <pre>
 * journals: double-owned cycles K of C
 * journals: takeover T s (first F s, median M s[, the not-Ready KEY N s]; P primaries of MEMBER, Q not taken over)
 * </pre>
 * Arguments: {@code [--killed MEMBER --at EPOCH_MILLIS [--not-ready PRIMARY_KEY]] JOURNAL...}; with
 * {@code --not-ready}, also the takeover of that one primary (one the run made not Ready before the kill).
 */
public final class ShardJournals {
    private ShardJournals() {}

    public static void main(String[] args) {
        String killed = null;
        Instant at = null;
        String notReady = null;
        List<DoubleActors.Cycle> cycles = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--killed" -> killed = args[++i];
                case "--at" -> at = Instant.ofEpochMilli(Long.parseLong(args[++i]));
                case "--not-ready" -> notReady = args[++i];
                default -> cycles.addAll(CycleJournal.read(Path.of(args[i])));
            }
        }
        System.out.println("journals: double-owned cycles " + DoubleActors.find(cycles).size() + " of " + cycles.size());
        if (killed != null && at != null) System.out.println("journals: " + takeover(cycles, killed, at, notReady));
    }

    static String takeover(List<DoubleActors.Cycle> cycles, String killed, Instant at, String notReady) {
        Map<String, DoubleActors.Cycle> lastBefore = new HashMap<>();
        Map<String, DoubleActors.Cycle> firstAfterByOthers = new HashMap<>();
        for (DoubleActors.Cycle cycle : cycles) {
            if (cycle.start().isBefore(at)) {
                lastBefore.merge(cycle.primaryKey(), cycle, (a, b) -> a.start().isAfter(b.start()) ? a : b);
            } else if (!cycle.member().equals(killed)) {
                firstAfterByOthers.merge(cycle.primaryKey(), cycle, (a, b) -> a.start().isBefore(b.start()) ? a : b);
            }
        }
        List<String> held = lastBefore.values().stream().filter(c -> c.member().equals(killed)).map(DoubleActors.Cycle::primaryKey).toList();
        List<String> orphaned = held.stream().filter(key -> !firstAfterByOthers.containsKey(key)).toList();
        List<Duration> taken = held.stream().map(firstAfterByOthers::get).filter(java.util.Objects::nonNull)
                .map(cycle -> Duration.between(at, cycle.start())).sorted().toList();
        String spread = taken.isEmpty() ? "" : "first " + seconds(taken.get(0)) + " s, median " + seconds(taken.get((taken.size() - 1) / 2)) + " s"
                + (notReady == null ? "" : ", the not-Ready " + notReady + " " + Optional.ofNullable(firstAfterByOthers.get(notReady))
                        .map(cycle -> seconds(Duration.between(at, cycle.start())) + " s").orElse("not taken over")) + "; ";
        String latest = taken.isEmpty() ? "NA" : seconds(taken.get(taken.size() - 1));
        return "takeover " + latest + " s (" + spread + held.size() + " primaries of " + killed + ", " + orphaned.size() + " not taken over)";
    }

    private static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f", duration.toMillis() / 1000.0);
    }
}
