package dev.runbook.rules.fact;

/**
 * The primary is paused, as its bundle's {@code bundle.yaml} {@code pause:} declares (a spec field or an
 * annotation). Inserted by the engine whenever the primary is paused, so a rule that reports the pause
 * says {@code Paused()} in its conditions. While it holds, the engine keeps every rule that would ask
 * for an action from firing, unless the rule declares {@code @whilePaused} (docs/reference/idioms.md#pause):
 * no rule needs a {@code not Paused()} guard.
 */
public final class Paused {
    private final String by;

    public Paused(String by) {
        if (by == null || by.isBlank()) throw new IllegalArgumentException("Paused needs what paused the primary");
        this.by = by;
    }

    /** What paused the primary, as bundle.yaml declares it: {@code spec.paused} or {@code annotation NAME}. */
    public String getBy() { return by; }

    @Override
    public String toString() { return "Paused( by=" + by + " )"; }
}
