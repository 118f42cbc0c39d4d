package dev.runbook.rules.invariant;

/**
 * What an invariant rule inserts when the property it states does not hold, with a message that says
 * which objects break it, e.g. {@code pg-0 and pg-1 are both labelled primary}. The engine names the
 * invariant after the rule that inserted it. Invariant rules live under a bundle's
 * {@code invariants/} and run in a session of their own after each cycle's plan was applied, so a
 * violation can never change what the rules decide.
 */
public final class Violation {
    private final String message;

    public Violation(String message) {
        if (message == null || message.isBlank()) {
            throw new IllegalArgumentException("a Violation needs a message that says what does not hold, "
                    + "e.g. new Violation(\"pg-0 and pg-1 are both labelled primary\")");
        }
        this.message = message;
    }

    public String getMessage() { return message; }

    @Override
    public String toString() { return "Violation(" + message + ")"; }
}
