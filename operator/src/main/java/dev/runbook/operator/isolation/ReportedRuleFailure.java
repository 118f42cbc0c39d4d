package dev.runbook.operator.isolation;

import dev.runbook.engine.containment.RuleContainmentException;
import dev.runbook.engine.decide.RuleFailedException;

/**
 * A rule failure as a worker reported it: the rule and the message, as the worker's engine worded them,
 * so that the operator maps and records it as it would one in its own process.
 */
final class ReportedRuleFailure {
    private ReportedRuleFailure() {}

    /** A rule that threw. */
    static RuleFailedException failed(String rule, String message) {
        return new Failed(rule, message);
    }

    /** A rule stopped at its deadline, its memory budget or the stack; {@code template} names the one it was rendering, or is null. */
    static RuleContainmentException stopped(String rule, String template, String message) {
        return new Stopped(rule, template, message);
    }

    private static final class Failed extends RuleFailedException {
        Failed(String rule, String message) {
            super(rule, message, null);
        }
    }

    private static final class Stopped extends RuleContainmentException {
        Stopped(String rule, String template, String message) {
            super(rule, template, message, null);
        }
    }
}
