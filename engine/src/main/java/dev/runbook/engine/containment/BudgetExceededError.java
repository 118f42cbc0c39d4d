package dev.runbook.engine.containment;

import java.time.Duration;

/**
 * Thrown inside rule code by {@link RuleBudget#check()} when the budget is spent. An Error, so that
 * a rule's {@code catch (Exception e)} does not swallow it (catching Error or Throwable is refused
 * at compile time); the cycle turns it into a {@link RuleDeadlineExceededException} or a
 * {@link RuleMemoryExceededException} naming the rule.
 */
public final class BudgetExceededError extends Error {
    private final String limitName;
    private final Duration deadline;
    private final RuleBudget.Clock clock;
    private final long allocatedBytes;
    private final long maxAllocatedBytes;

    private BudgetExceededError(String message, String limitName, Duration deadline, RuleBudget.Clock clock,
                                long allocatedBytes, long maxAllocatedBytes) {
        super(message, null, false, true);
        this.limitName = limitName;
        this.deadline = deadline;
        this.clock = clock;
        this.allocatedBytes = allocatedBytes;
        this.maxAllocatedBytes = maxAllocatedBytes;
    }

    static BudgetExceededError deadline(String limitName, Duration deadline, RuleBudget.Clock clock) {
        return new BudgetExceededError(spent(deadline, clock) + " (" + limitName + ")", limitName, deadline, clock, 0, 0);
    }

    /** "used more than 5s of CPU time", or "ran longer than 5s" where deadlines are wall-clock time. */
    static String spent(Duration deadline, RuleBudget.Clock clock) {
        String amount = dev.runbook.rules.function.Durations.format(deadline);
        return clock == RuleBudget.Clock.CPU ? "used more than " + amount + " of CPU time" : "ran longer than " + amount;
    }

    /** @param more what was about to be allocated at once (an array), refused before it was; 0 when none */
    static BudgetExceededError memory(String limitName, long allocated, long more, long max) {
        String what = more > 0
                ? "asked for an array of " + mebibytes(more) + " MiB, which would have taken the cycle past"
                : "allocated " + mebibytes(allocated) + " MiB, more than";
        return new BudgetExceededError(what + " the " + mebibytes(max) + " MiB a cycle may (" + ContainmentLimits.MEMORY_NAME + ")",
                limitName, null, null, allocated + more, max);
    }

    private static long mebibytes(long bytes) {
        return bytes / (1024 * 1024);
    }

    /** The same stop, thrown again from a later check. */
    BudgetExceededError again() {
        return this;
    }

    public boolean isDeadline() { return deadline != null; }

    public String limitName() { return limitName; }

    public Duration deadline() { return deadline; }

    /** The time the deadline was measured in; null for a memory budget. */
    public RuleBudget.Clock clock() { return clock; }

    public long allocatedBytes() { return allocatedBytes; }

    public long maxAllocatedBytes() { return maxAllocatedBytes; }
}
