package dev.runbook.operator.health;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A worker's heartbeat with a deadline: the worker says when it starts and ends a piece of work, and
 * readiness asks whether it has been busy with one piece for longer than the deadline (stuck on an API
 * call, a compile or a scenario that never ends). Thread-safe; the clock is injected.
 */
public final class Heartbeat {
    private final String worker;
    private final Duration deadline;
    private final Clock clock;
    private Instant busySince;
    private String busyWith;

    public Heartbeat(String worker, Duration deadline, Clock clock) {
        this.worker = worker;
        this.deadline = deadline;
        this.clock = clock;
    }

    public synchronized void begin(String what) {
        busySince = clock.instant();
        busyWith = what;
    }

    public synchronized void end() {
        busySince = null;
        busyWith = null;
    }

    /** Why the worker looks stuck; empty when it is idle or within its deadline. */
    public synchronized List<String> problems() {
        if (busySince == null) return List.of();
        Duration busy = Duration.between(busySince, clock.instant());
        if (busy.compareTo(deadline) <= 0) return List.of();
        return List.of(worker + " has been busy with " + busyWith + " for " + busy.toSeconds()
                + "s, longer than its deadline of " + deadline.toSeconds() + "s: it looks stuck");
    }
}
