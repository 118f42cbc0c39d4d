package dev.runbook.operator.health;

import java.time.Duration;

/**
 * Where the code that bounds a cycle's or a reload's time reports how each one ended, so that
 * liveness can fail when they overrun repeatedly ({@link DeadlineOverruns}): a process whose every
 * cycle hits its deadline is better restarted than left running.
 */
public interface DeadlineReport {
    DeadlineReport NONE = new DeadlineReport() {
        @Override public void exceeded(String work, Duration deadline) {}
        @Override public void withinDeadline(String work) {}
    };

    /** {@code work} (e.g. "cycle of PostgresCluster demo/pg") was stopped at, or ran past, its deadline. */
    void exceeded(String work, Duration deadline);

    /** {@code work} finished within its deadline. */
    void withinDeadline(String work);
}
