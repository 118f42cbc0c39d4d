package dev.runbook.operator.controller;

import java.util.Map;

/**
 * How many cycles each bundle's controller runs at once. A cycle is CPU work (facts, rules, templates)
 * around a few short requests, so two threads per core keep the cores busy while some cycles wait on
 * the API server; JOSDK's default of 50, sized for reconcilers that mostly wait, made 50 cold cycles
 * share two cores while 100 clusters converged: 12% more time and CPU to all Healthy and about 60 MB
 * more resident memory than 8 (docs/performance-log.md#reconcile-threads). At 1000 clusters on two
 * cores, 4 threads took 7–8% less CPU and 3% fewer writes than 8 in each of two alternating passes of
 * 4, 8 and 16, and were as fast or faster to all Healthy (docs/performance.md#reconcile-threads-at-n1000):
 * more cycles at once see more intermediate states, and write a status for each.
 *
 * <p>The count comes from {@code --reconcile-threads}, else from {@value #VARIABLE} (so that a
 * Deployment, or a harness that starts the command with a fixed command line, can set it), else
 * {@link #byDefault()}.
 */
public final class ReconcileThreads {
    /** The environment variable that gives the count when the option is not given. */
    public static final String VARIABLE = "RUNBOOK_RECONCILE_THREADS";
    /** Threads per available processor (the option's help text names it). */
    public static final int PER_PROCESSOR = 2;
    /** Never fewer: a slow request must not stall every other cluster on a one-core pod. */
    public static final int MINIMUM = 4;

    private ReconcileThreads() {}

    /** The count to use, or why there is none: exactly one of the two is set. */
    public record Choice(int threads, String problem) {}

    /**
     * The count from the option ({@code option}, null when not given), else from {@link #VARIABLE} in
     * {@code environment} (blank counts as unset), else the default; a problem, naming where the count
     * came from and the fix, when it is not a whole number of at least 1.
     */
    public static Choice chosen(Integer option, Map<String, String> environment) {
        if (option != null) {
            String problem = problem(option);
            return problem == null ? new Choice(option, null) : new Choice(0, "--reconcile-threads " + option + ": " + problem);
        }
        String text = environment.get(VARIABLE);
        if (text == null || text.isBlank()) return new Choice(byDefault(), null);
        String where = VARIABLE + "=" + text.strip();
        int threads;
        try {
            threads = Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            return new Choice(0, where + ": not a whole number; " + problem(0) + ", or unset it");
        }
        String problem = problem(threads);
        return problem == null ? new Choice(threads, null) : new Choice(0, where + ": " + problem + ", or unset it");
    }

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
