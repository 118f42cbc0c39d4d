package dev.runbook.engine.containment;

import dev.runbook.engine.decide.RuleFailedException;

/**
 * Rule code overstepped what the engine grants it at run time: its deadline, the memory budget, or
 * the stack. A permanent error: the same bundle over the same state does the same again, so the
 * cycle is not retried until the bundle or the state changes. Names the rule (or the function, for
 * a condition that called one).
 */
public abstract class RuleContainmentException extends RuleFailedException {
    protected RuleContainmentException(String rule, String message, Throwable cause) {
        super(rule, message, cause);
    }
}
