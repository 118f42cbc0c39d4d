package dev.runbook.operator.controller;

/**
 * How many cycles each bundle's controller runs at once. A cycle is CPU work (facts, rules, templates)
 * around a few short requests, so a handful of threads per core keeps the cores busy while some cycles
 * wait on the API server; JOSDK's default of 50, sized for reconcilers that mostly wait, made 50 cold
 * cycles share two cores while 100 clusters converged: 12% more time and CPU to all Healthy and about
 * 60 MB more resident memory than 8 (docs/performance.md#reconcile-threads).
 */
public final class ReconcileThreads {
    /** Threads per available processor. */
    static final int PER_PROCESSOR = 4;
    /** Never fewer: a slow request must not stall every other cluster on a one-core pod. */
    static final int MINIMUM = 4;

    private ReconcileThreads() {}

    /** The default for this JVM: {@link #forProcessors} of the processors it may use (a container's CPU limit). */
    public static int byDefault() {
        return forProcessors(Runtime.getRuntime().availableProcessors());
    }

    static int forProcessors(int processors) {
        return Math.max(MINIMUM, PER_PROCESSOR * processors);
    }

    /** Why {@code threads} cannot be used, as the end of a message that names it; null when it can. */
    public static String problem(int threads) {
        return threads >= 1 ? null
                : "give at least 1 (the default here is " + byDefault() + ", " + PER_PROCESSOR + " per processor)";
    }
}
