package dev.runbook.testkit.invariant;

/**
 * An invariant that did not hold after a cycle: the invariant rule's name and the message of the
 * {@link dev.runbook.rules.invariant.Violation} it inserted.
 */
public record InvariantViolation(String invariant, String message) {
    @Override
    public String toString() { return "invariant violated: " + invariant + ": " + message; }
}
