package dev.runbook.engine.containment;

import java.time.Duration;

/** A rule was stopped because the cycle, the scenario or the vetting ran past its deadline. */
public final class RuleDeadlineExceededException extends RuleContainmentException {
    private final String limitName;
    private final Duration deadline;

    public RuleDeadlineExceededException(String rule, String limitName, Duration deadline, RuleBudget.Clock clock,
                                         Throwable cause) {
        this(rule, null, limitName, deadline, clock, cause);
    }

    /** @param template the template that was rendering for the rule, or null */
    public RuleDeadlineExceededException(String rule, String template, String limitName, Duration deadline, RuleBudget.Clock clock,
                                         Throwable cause) {
        super(rule, template, who(rule, template) + " exceeded its deadline: it " + BudgetExceededError.spent(deadline, clock)
                + " (" + limitName + ") and was stopped; " + (template == null
                ? "look for a loop that does not end or a recursion in it or in the functions it calls"
                : "look for @foreach{} within @foreach{} over long lists"), cause);
        this.limitName = limitName;
        this.deadline = deadline;
    }

    public String limitName() { return limitName; }

    public Duration deadline() { return deadline; }
}
