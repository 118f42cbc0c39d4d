package dev.runbook.engine.containment;

/** A rule recursed too deeply (the thread's stack overflowed). */
public final class RuleStackOverflowException extends RuleContainmentException {
    public RuleStackOverflowException(String rule, Throwable cause) {
        super(rule, "rule '" + rule + "' overflowed the stack: a function recursed too deeply and was stopped; "
                + "give the recursion an end, or write it as a loop", cause);
    }
}
