package dev.runbook.operator.shard;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The invariant "never two replicas acting on one primary", checked from the replicas' own records of
 * their cycles: two cycles on one primary by different members whose times overlap are a double-owned
 * cycle. Handover without two actors never produces one: the old owner's last cycle on a primary is the
 * one that acknowledges its drain, and the new owner's first starts after the primary was assigned to
 * it, which is after that acknowledgement. The records' times must come from one clock (the replicas of
 * a test in one JVM), or from clocks known to agree to well under a cycle.
 */
public final class DoubleActors {
    private DoubleActors() {}

    /** One cycle a member ran on a primary, from its start to its end. */
    public record Cycle(String member, String primaryKey, Instant start, Instant end) {
        public Cycle {
            if (end.isBefore(start)) throw new IllegalArgumentException("a cycle ends after it starts: " + start + " .. " + end);
        }
    }

    /** Two cycles of different members on one primary at once. */
    public record Overlap(Cycle first, Cycle second) {}

    /** Every overlap among {@code cycles}; empty when the invariant held. */
    public static List<Overlap> find(Collection<Cycle> cycles) {
        List<Overlap> overlaps = new ArrayList<>();
        Map<String, List<Cycle>> byPrimary = cycles.stream().collect(Collectors.groupingBy(Cycle::primaryKey));
        for (List<Cycle> onePrimary : byPrimary.values()) {
            List<Cycle> byStart = onePrimary.stream().sorted(Comparator.comparing(Cycle::start)).toList();
            for (int i = 0; i < byStart.size(); i++) {
                Cycle earlier = byStart.get(i);
                for (int j = i + 1; j < byStart.size() && !byStart.get(j).start().isAfter(earlier.end()); j++) {
                    if (!byStart.get(j).member().equals(earlier.member())) overlaps.add(new Overlap(earlier, byStart.get(j)));
                }
            }
        }
        return overlaps;
    }
}
