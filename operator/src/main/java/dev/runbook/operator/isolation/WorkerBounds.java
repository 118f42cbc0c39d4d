package dev.runbook.operator.isolation;

import dev.runbook.engine.containment.ContainmentLimits;

import java.time.Duration;

/**
 * How long, in wall-clock time, the operator waits for a worker before it kills it. Inside the worker
 * rule code is stopped at its CPU-time deadlines (the policy's {@code limits}); these bounds are the
 * outside line, for code that does not stop (it sleeps, blocks, or spins where no budget check runs),
 * and they leave room for a loaded machine, where wall-clock time runs ahead of CPU time.
 */
public final class WorkerBounds {
    /** A JVM starting on a loaded machine. */
    public static final Duration START = Duration.ofMinutes(2);
    /** How many times its CPU-time deadline a request may take in wall-clock time. */
    static final int LOAD_FACTOR = 4;
    /** Added to each bound: the pause of a garbage collection, the worker's first use of a class. */
    static final Duration GRACE = Duration.ofSeconds(10);
    /** A compile has no deadline of its own inside the worker; outside it gets the vetting deadline's bound. */
    static final int COMPILE_AND_VET_FACTOR = 2;

    private WorkerBounds() {}

    /** One cycle: {@value #LOAD_FACTOR} times the cycle deadline, plus {@link #GRACE} (30 s by default). */
    public static Duration cycle(ContainmentLimits limits) {
        return limits.cycleDeadline().multipliedBy(LOAD_FACTOR).plus(GRACE);
    }

    /** Compiling a bundle and running its scenarios: twice the vetting deadline, plus {@link #GRACE} (4 min 10 s by default). */
    public static Duration load(ContainmentLimits limits) {
        return limits.vettingDeadline().multipliedBy(COMPILE_AND_VET_FACTOR).plus(GRACE);
    }
}
