package dev.runbook.rules.fact;

/**
 * A runbook's claim on the primary's {@code status.phase}: the phase, how urgent the claim is, the
 * reason and the message that explain it (for the Ready condition, an event). Rules derive claims with
 * {@code insertLogical}; one status rule writes the most urgent one, so that two runbooks never fight
 * over the phase (docs/reference/idioms.md#phase-claims).
 *
 * <p>The urgency is a constant of an enum that the bundle declares once, most urgent first
 * ({@code declare enum Urgency SPLIT_BRAIN, FAILING_OVER, ... end}): the order of the constants is the
 * order of the claims, so no claim carries a bare number. Equal only to itself, as a type declared in
 * DRL without keys: two rules that claim the same hold two claims.
 */
public final class PhaseClaim {
    private final String phase;
    private final Enum<?> urgency;
    private final String reason;
    private final String message;

    public PhaseClaim(String phase, Enum<?> urgency, String reason, String message) {
        if (phase == null || phase.isBlank()) throw new IllegalArgumentException("a PhaseClaim needs a phase, e.g. \"Degraded\"");
        if (urgency == null) {
            throw new IllegalArgumentException("the PhaseClaim of phase " + phase + " needs an urgency: a constant of the bundle's"
                    + " enum of urgencies, e.g. Urgency.DEGRADED (declare enum Urgency ... end, most urgent first)");
        }
        this.phase = phase;
        this.urgency = urgency;
        this.reason = reason == null ? "" : reason;
        this.message = message == null ? "" : message;
    }

    public String getPhase() { return phase; }

    /** The constant of the bundle's enum of urgencies: its position there is the claim's rank. */
    public Enum<?> getUrgency() { return urgency; }

    /** A CamelCase reason for a condition or an event, e.g. {@code NoReadyReplica}. */
    public String getReason() { return reason; }

    public String getMessage() { return message; }

    /**
     * Whether this claim is more urgent than the other: its urgency comes earlier in the bundle's enum.
     * Claims of equal urgency outrank neither; the status rule {@code not PhaseClaim(outranks($claim))}
     * matches each of the most urgent.
     *
     * @throws IllegalArgumentException when the two urgencies are constants of different enums, whose orders say nothing of each other
     */
    public boolean outranks(PhaseClaim other) {
        if (other.urgency.getDeclaringClass() != urgency.getDeclaringClass()) {
            throw new IllegalArgumentException("the PhaseClaims " + phase + " (" + urgency.getDeclaringClass().getSimpleName() + "." + urgency.name()
                    + ") and " + other.phase + " (" + other.urgency.getDeclaringClass().getSimpleName() + "." + other.urgency.name()
                    + ") rank their urgency by different enums: declare one enum of urgencies for the bundle and use it in every claim");
        }
        return urgency.ordinal() < other.urgency.ordinal();
    }

    @Override
    public String toString() {
        return "PhaseClaim( phase=" + phase + ", urgency=" + urgency.name() + ", reason=" + reason + ", message=" + message + " )";
    }
}
