package dev.runbook.rules.fact;

import dev.runbook.rules.function.Durations;

import java.time.Duration;
import java.time.Instant;

/**
 * The time of the cycle, as one fact: every rule in a cycle sees the same "now", and tests set it.
 * Rules never read the system clock.
 */
public final class Clock {
    private final Instant now;

    public Clock(Instant now) {
        if (now == null) throw new IllegalArgumentException("a clock needs a time");
        this.now = now;
    }

    public Instant getNow() { return now; }

    /** Time from {@code then} to now; negative when {@code then} lies in the future. */
    public Duration since(Instant then) { return Duration.between(then, now); }

    public long secondsSince(Instant then) { return since(then).getSeconds(); }

    /** Whether at least {@code duration} ("30s", "5m") has passed since {@code then}. */
    public boolean hasElapsed(Instant then, String duration) {
        return then != null && since(then).compareTo(Durations.parse(duration)) >= 0;
    }

    @Override
    public String toString() { return "Clock " + now; }
}
