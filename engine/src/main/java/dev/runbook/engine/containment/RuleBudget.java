package dev.runbook.engine.containment;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The time and memory a thread's rule code may still use. The engine inserts a call to
 * {@link #check()} at every method entry and backward branch of a bundle's compiled code, so a
 * {@code while (true)} or a deep recursion reaches a check within a few instructions; past the
 * deadline or the allocation budget the check throws, and the cycle fails naming the rule.
 *
 * <p>Deadlines are measured in the thread's own CPU time where the JVM can read it (HotSpot on
 * Linux, macOS, Windows: {@link ThreadMXBean#getCurrentThreadCpuTime()}), so that a loaded machine,
 * a garbage collection or a descheduled thread does not stop a rule that is merely slow to be run;
 * elsewhere, or with {@value #CLOCK_PROPERTY}{@code =wall}, in wall-clock time. A rule that blocks
 * cannot be stopped by either (it reaches no check); rule code can call nothing that blocks.
 *
 * <p>Budgets nest: a scenario's deadline encloses its cycles', and a cycle ends at the earlier of
 * the two. Once a budget is spent every later check throws again, so a rule cannot swallow the
 * stop and carry on. A thread outside {@link #within} runs unchecked (one ThreadLocal read).
 */
public final class RuleBudget {
    /** {@code cpu} (the default where supported) or {@code wall}: which time a deadline is measured in. */
    public static final String CLOCK_PROPERTY = "runbook.budgetClock";
    private static final ThreadLocal<Budget> CURRENT = new ThreadLocal<>();
    /** Checks between two reads of the thread's allocation counter (a field read, cheap). */
    private static final int SAMPLE_MEMORY_EVERY = 16;
    /**
     * Checks between two reads of the clock: reading a thread's CPU time is a system call (some hundreds
     * of nanoseconds, more on a loaded machine), so it is read rarely; 256 checks of rule code are a
     * few microseconds at most. docs/performance.md, "Containment", has what a check costs.
     */
    private static final int SAMPLE_CLOCK_EVERY = 256;
    private static final com.sun.management.ThreadMXBean THREADS = threads();
    private static final ThreadMXBean CPU = cpuClock();

    /** The time a deadline is measured in. */
    public enum Clock { CPU, WALL }

    private RuleBudget() {}

    /** Called by instrumented bundle code; never by hand. */
    public static void check() {
        Budget budget = CURRENT.get();
        if (budget != null) budget.tick();
    }

    /**
     * Called by instrumented bundle code just before it creates an array of {@code count} elements of
     * {@code elementBytes} each: a creation that alone would take the cycle past its memory budget is
     * refused before it happens, so the rule that asked for it is the one stopped (one instruction can
     * take gigabytes, which the next sampled check would see only later, in another rule's code).
     *
     * @return {@code count}, for the array creation that follows
     */
    public static int allocating(int count, int elementBytes) {
        Budget budget = CURRENT.get();
        if (budget != null) budget.allocating((long) Math.max(count, 0) * elementBytes);
        return count;
    }

    /**
     * Checks the memory budget now rather than at the next sampled check: called where one rule's work
     * ends (after its consequence, after a template rendered), so that what it allocated is blamed on it
     * and not on whatever runs next. Reads the thread's allocation counter only (cheap); the deadline
     * stays sampled.
     */
    public static void measureMemory() {
        Budget budget = CURRENT.get();
        if (budget != null) budget.allocating(0);
    }

    /**
     * Runs {@code body} under a deadline named {@code limitName} (e.g. {@code limits.cycleDeadline})
     * and, when {@code maxAllocatedBytes > 0}, an allocation budget. An enclosing budget that ends
     * sooner still applies.
     *
     * @throws BudgetExceededError from the body when a check found the budget spent
     */
    public static <T> T within(String limitName, Duration deadline, long maxAllocatedBytes, Supplier<T> body) {
        Budget enclosing = CURRENT.get();
        Budget budget = new Budget(limitName, deadline, maxAllocatedBytes, enclosing);
        CURRENT.set(budget);
        try {
            return body.get();
        } finally {
            if (enclosing == null) CURRENT.remove(); else CURRENT.set(enclosing);
        }
    }

    /** The clock deadlines are measured by in this JVM. */
    public static Clock clock() {
        return CPU == null ? Clock.WALL : Clock.CPU;
    }

    private static ThreadMXBean cpuClock() {
        if ("wall".equalsIgnoreCase(System.getProperty(CLOCK_PROPERTY, "").strip())) return null;
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        if (!bean.isCurrentThreadCpuTimeSupported()) return null;
        if (!bean.isThreadCpuTimeEnabled()) bean.setThreadCpuTimeEnabled(true);
        return bean.getCurrentThreadCpuTime() >= 0 ? bean : null;
    }

    /** Now, in the clock deadlines are measured by: the thread's CPU time, or wall-clock time, in nanoseconds. */
    private static long now() {
        return CPU == null ? System.nanoTime() : CPU.getCurrentThreadCpuTime();
    }

    private static com.sun.management.ThreadMXBean threads() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean
                && bean.isThreadAllocatedMemorySupported()) {
            if (!bean.isThreadAllocatedMemoryEnabled()) bean.setThreadAllocatedMemoryEnabled(true);
            return bean;
        }
        return null;
    }

    private static long allocatedBytes() {
        return THREADS == null ? 0 : THREADS.getCurrentThreadAllocatedBytes();
    }

    private static final class Budget {
        private final String limitName;
        private final Duration deadline;
        private final long endsAtNanos;
        private final long maxAllocatedBytes;
        private final long allocatedAtStart;
        private final Budget enclosing;
        private int ticks;
        private BudgetExceededError spent;

        Budget(String limitName, Duration deadline, long maxAllocatedBytes, Budget enclosing) {
            this.limitName = limitName;
            this.deadline = deadline;
            this.endsAtNanos = now() + deadline.toNanos();
            this.maxAllocatedBytes = maxAllocatedBytes;
            this.allocatedAtStart = maxAllocatedBytes > 0 ? allocatedBytes() : 0;
            this.enclosing = enclosing;
        }

        void tick() {
            if (spent != null) throw spent.again();
            if (++ticks % SAMPLE_MEMORY_EVERY != 0) return;
            if (ticks % SAMPLE_CLOCK_EVERY == 0) deadline();
            memory(0);
        }

        void allocating(long bytes) {
            if (spent != null) throw spent.again();
            memory(bytes);
        }

        private void deadline() {
            long now = now();
            for (Budget b = this; b != null; b = b.enclosing) {
                if (now - b.endsAtNanos > 0) {
                    throw spent = BudgetExceededError.deadline(b.limitName, b.deadline, clock());
                }
            }
        }

        /** @param more bytes about to be allocated at once (0: only what was allocated so far) */
        private void memory(long more) {
            if (maxAllocatedBytes <= 0) return;
            long allocated = allocatedBytes() - allocatedAtStart;
            if (allocated + more > maxAllocatedBytes) {
                throw spent = BudgetExceededError.memory(limitName, allocated, more, maxAllocatedBytes);
            }
        }
    }
}
