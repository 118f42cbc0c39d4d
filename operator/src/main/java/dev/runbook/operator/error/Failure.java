package dev.runbook.operator.error;

import java.util.List;

/**
 * What went wrong in a cycle, mapped by {@link ErrorMapping}: a {@link Kind#TEMPORARY} failure is
 * retried with backoff; a {@link Kind#PERMANENT} one is shown in the {@code RunbookApplied} condition
 * and a Warning event, with the rules involved, and the resource is reconciled again at the bundle's
 * period (or when something changes), never in a tight loop.
 *
 * @param reason  one UpperCamelCase word for the condition and the event, see {@link Reasons}
 * @param message what happened, naming the action or the rules, and the fix where there is one
 * @param rules   the rules involved, empty when none is
 */
public record Failure(Kind kind, String reason, String message, List<String> rules) {
    public enum Kind { TEMPORARY, PERMANENT }

    public Failure {
        rules = List.copyOf(rules);
    }

    public boolean isTemporary() { return kind == Kind.TEMPORARY; }

    /** The message, followed by the rules involved when there are any. */
    public String describe() {
        return rules.isEmpty() ? message : message + " (rules: " + String.join(", ", rules) + ")";
    }
}
