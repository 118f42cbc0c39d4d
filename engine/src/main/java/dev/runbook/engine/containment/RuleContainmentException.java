package dev.runbook.engine.containment;

import dev.runbook.engine.decide.RuleFailedException;

/**
 * Rule code overstepped what the engine grants it at run time: its deadline, the memory budget, or
 * the stack. A permanent error: the same bundle over the same state does the same again, so the
 * cycle is not retried until the bundle or the state changes. Names the rule (or the function, for
 * a condition that called one), and the template when it was rendering one the rule applied.
 */
public abstract class RuleContainmentException extends RuleFailedException {
    private final String template;

    protected RuleContainmentException(String rule, String template, String message, Throwable cause) {
        super(rule, message, cause);
        this.template = template;
    }

    /** The template that was rendering (its path under templates/), or null when rule code itself was running. */
    public String template() { return template; }

    /** {@code rule 'X'}, or {@code template x.yaml (applied by rule 'X')}. */
    static String who(String rule, String template) {
        return template == null ? "rule '" + rule + "'" : "template " + template + " (applied by rule '" + rule + "')";
    }
}
