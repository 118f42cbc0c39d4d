package dev.runbook.engine.containment;

import java.time.Duration;

/** A rule was stopped because the cycle, the scenario or the vetting ran past its deadline. */
public final class RuleDeadlineExceededException extends RuleContainmentException {
    private final String limitName;
    private final Duration deadline;

    public RuleDeadlineExceededException(String rule, String limitName, Duration deadline, RuleBudget.Clock clock,
                                         Throwable cause) {
        super(rule, "rule '" + rule + "' exceeded its deadline: it " + BudgetExceededError.spent(deadline, clock) + " (" + limitName
                + ") and was stopped; look for a loop that does not end or a recursion in it or in the functions it calls",
                cause);
        this.limitName = limitName;
        this.deadline = deadline;
    }

    public String limitName() { return limitName; }

    public Duration deadline() { return deadline; }
}
