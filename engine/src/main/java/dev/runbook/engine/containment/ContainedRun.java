package dev.runbook.engine.containment;

import dev.runbook.engine.bundle.Limits;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * The boundary around code that runs a bundle's rules: sets the budget, and turns a spent budget,
 * a stack overflow or an out-of-memory error from inside the rules into a
 * {@link RuleContainmentException} naming the rule. The thread that ran the rules is the caller's:
 * when this returns or throws, no rule code is left running anywhere.
 */
public final class ContainedRun {
    private ContainedRun() {}

    /**
     * One decision cycle: the operator's cycle deadline, or the bundle's shorter
     * {@code limits.cycleDeadline}, and the cycle's memory budget.
     *
     * @param operator    the operator's limits (its policy's, with the administrator's overrides)
     * @param currentRule the rule firing now, or null while conditions are evaluated
     */
    public static <T> T cycle(ContainmentLimits operator, Limits bundleLimits, Supplier<String> currentRule, Supplier<T> body) {
        Duration deadline = operator.cycleDeadline();
        String name = ContainmentLimits.CYCLE_NAME;
        if (bundleLimits.cycleDeadline() != null && bundleLimits.cycleDeadline().compareTo(deadline) < 0) {
            deadline = bundleLimits.cycleDeadline();
            name = ContainmentLimits.BUNDLE_CYCLE_NAME;
        }
        try {
            return RuleBudget.within(name, deadline, operator.cycleMemoryBytes(), body);
        } catch (RuntimeException | Error e) {
            throw contained(e, currentRule.get());
        }
    }

    /** A scenario: every cycle in it ends by the scenario's deadline too. */
    public static <T> T scenario(ContainmentLimits operator, Supplier<T> body) {
        return bounded(ContainmentLimits.SCENARIO_NAME, operator.scenarioDeadline(), body);
    }

    /** The vetting of a bundle before it goes live: every scenario in it ends by the vetting deadline too. */
    public static <T> T vetting(ContainmentLimits operator, Supplier<T> body) {
        return bounded(ContainmentLimits.VETTING_NAME, operator.vettingDeadline(), body);
    }

    /** Rule code run outside a cycle (an invariant session) is stopped by the enclosing deadline, and named here. */
    private static <T> T bounded(String name, Duration deadline, Supplier<T> body) {
        try {
            return RuleBudget.within(name, deadline, 0, body);
        } catch (RuntimeException | Error e) {
            throw contained(e, null);
        }
    }

    /**
     * Renders a template the rule {@code rule} applied, within the cycle's budget: a spent budget, a stack
     * overflow or running out of memory while it renders names the template (and the rule), and what it
     * allocated is measured as soon as it is rendered, before anything else runs.
     *
     * @param template its path under templates/
     */
    public static <T> T template(String template, String rule, Supplier<T> body) {
        try {
            T rendered = body.get();
            RuleBudget.measureMemory();
            return rendered;
        } catch (RuntimeException | Error e) {
            throw contained(e, rule, template);
        }
    }

    /** Whether {@code failure} is, or was caused by, the engine's stop of bundle code (not a fault of its own). */
    public static boolean isStop(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RuleContainmentException || t instanceof BudgetExceededError || t instanceof StackOverflowError
                    || t instanceof OutOfMemoryError) {
                return true;
            }
        }
        return false;
    }

    /** {@code failure} as a {@link RuleContainmentException} when it is one of ours, else unchanged. */
    static RuntimeException contained(Throwable failure, String firingRule) {
        return contained(failure, firingRule, null);
    }

    private static RuntimeException contained(Throwable failure, String firingRule, String template) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RuleContainmentException already) return already;
            if (t instanceof BudgetExceededError spent) {
                String rule = blame(firingRule, failure);
                return spent.isDeadline()
                        ? new RuleDeadlineExceededException(rule, template, spent.limitName(), spent.deadline(), spent.clock(), spent)
                        : new RuleMemoryExceededException(rule, template, spent.getMessage(), spent);
            }
            if (t instanceof StackOverflowError overflow) {
                return new RuleStackOverflowException(blame(firingRule, overflow), template, overflow);
            }
            if (t instanceof OutOfMemoryError memory) {
                return new RuleMemoryExceededException(blame(firingRule, memory), template, "the JVM ran out of memory ("
                        + memory.getMessage() + ")", memory);
            }
        }
        if (failure instanceof RuntimeException runtime) return runtime;
        throw (Error) failure;
    }

    /**
     * The rule firing, or for a condition the bundle code that ran last: a condition has no rule
     * until it matches, but the function it called is in the stack.
     */
    private static String blame(String firingRule, Throwable failure) {
        if (firingRule != null) return firingRule;
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            for (StackTraceElement frame : t.getStackTrace()) {
                if (BundleCode.isBundleFrame(frame)) return "(a condition, in " + BundleCode.describe(frame) + ")";
            }
        }
        return "(a condition)";
    }
}
