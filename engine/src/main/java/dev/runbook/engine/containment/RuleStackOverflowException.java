package dev.runbook.engine.containment;

/** A rule recursed too deeply (the thread's stack overflowed). */
public final class RuleStackOverflowException extends RuleContainmentException {
    public RuleStackOverflowException(String rule, Throwable cause) {
        this(rule, null, cause);
    }

    /** @param template the template that was rendering for the rule, or null */
    public RuleStackOverflowException(String rule, String template, Throwable cause) {
        super(rule, template, who(rule, template) + " overflowed the stack: " + (template == null
                ? "a function recursed too deeply and was stopped; give the recursion an end, or write it as a loop"
                : "it was stopped"), cause);
    }
}
