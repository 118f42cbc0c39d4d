package dev.runbook.engine.containment;

/** A rule allocated more than a cycle may, or the JVM ran out of memory while it ran. */
public final class RuleMemoryExceededException extends RuleContainmentException {
    public RuleMemoryExceededException(String rule, String detail, Throwable cause) {
        this(rule, null, detail, cause);
    }

    /** @param template the template that was rendering for the rule, or null */
    public RuleMemoryExceededException(String rule, String template, String detail, Throwable cause) {
        super(rule, template, who(rule, template) + " exceeded the memory a cycle may use: " + detail
                + "; it was stopped (look for a collection or a string that grows without end)", cause);
    }
}
