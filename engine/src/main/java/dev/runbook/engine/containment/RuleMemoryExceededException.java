package dev.runbook.engine.containment;

/** A rule allocated more than a cycle may, or the JVM ran out of memory while it ran. */
public final class RuleMemoryExceededException extends RuleContainmentException {
    public RuleMemoryExceededException(String rule, String detail, Throwable cause) {
        super(rule, "rule '" + rule + "' exceeded the memory a cycle may use: " + detail
                + "; it was stopped (look for a collection or a string that grows without end)", cause);
    }
}
