package dev.runbook.testkit.explore;

/**
 * What went wrong in a run, at which step (from 1).
 *
 * @param kind what sort of failure: an invariant, a rule that failed, a refused plan, or no convergence
 * @param what the invariant's name, or the same word as the kind for the others; two findings with the
 *             same kind and what are the same failure, whatever their message
 */
public record Finding(Kind kind, String what, String message, int step) {
    public enum Kind { INVARIANT, RULE_FAILED, PLAN_REFUSED, NOT_CONVERGED }

    public boolean sameFailure(Finding other) {
        return other != null && kind == other.kind && what.equals(other.what);
    }

    @Override
    public String toString() {
        return switch (kind) {
            case INVARIANT -> "invariant violated: " + what + ": " + message;
            case RULE_FAILED -> "a rule failed: " + message;
            case PLAN_REFUSED -> "the plan was refused: " + message;
            case NOT_CONVERGED -> "did not converge once faults stopped: " + message;
        };
    }
}
