package dev.runbook.operator.health;

import dev.runbook.rules.fact.Primary;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The decisions in flight, by the thread that runs them, for liveness: a decision that has run past
 * its bound is stuck (a rule of a bundle that runs in the operator's process sleeps or blocks, where no
 * budget can stop it) and holds a reconcile thread for good; only a restart gets it back. A decision in
 * a worker process never gets here: the worker is killed at its bound, a minute before this one.
 */
public final class StuckDecisions {
    private record Started(String what, Instant at) {}

    private final Duration bound;
    private final Clock clock;
    private final Map<Thread, Started> running = new ConcurrentHashMap<>();

    public StuckDecisions(Duration bound, Clock clock) {
        this.bound = bound;
        this.clock = clock;
    }

    /** The current thread starts deciding a cycle of {@code primary}. */
    public void started(Primary primary) {
        running.put(Thread.currentThread(), new Started("the decision of " + primary.getKind() + " " + primary.getNamespace()
                + "/" + primary.getName(), clock.instant()));
    }

    /** The current thread's decision ended, one way or another. */
    public void ended() {
        running.remove(Thread.currentThread());
    }

    /** Why the process is not alive: the decisions running past the bound. */
    public List<String> problems() {
        Instant now = clock.instant();
        return running.values().stream()
                .filter(started -> Duration.between(started.at(), now).compareTo(bound) > 0)
                .map(started -> started.what() + " has run for " + Duration.between(started.at(), now).toSeconds()
                        + "s, longer than " + bound.toSeconds() + "s: its reconcile thread is stuck, a restart frees it")
                .sorted()
                .toList();
    }
}
