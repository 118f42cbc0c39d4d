package dev.runbook.operator.error;

/** The reasons the operator writes in its {@code RunbookApplied} condition and its events. */
public final class Reasons {
    private Reasons() {}

    /** The plan was applied (condition True). */
    public static final String APPLIED = "Applied";
    /** Observe mode: the plan was recorded, nothing applied. */
    public static final String OBSERVING = "Observing";
    /** The pause annotation is set: nothing applied. */
    public static final String PAUSED = "Paused";

    /** The plan check refused the plan (conflict, limits, namespace, protected kind, template). */
    public static final String PLAN_REFUSED = "PlanRefused";
    /** A rule threw while it was evaluated or fired. */
    public static final String RULE_FAILED = "RuleFailed";
    /** A rule was stopped at its deadline, its memory budget or the stack (engine.containment). */
    public static final String RULE_STOPPED = "RuleStopped";
    /** The rules fired more than {@code limits.maxFirings} times. */
    public static final String FIRING_LIMIT_EXCEEDED = "FiringLimitExceeded";
    /** The API server refused an action for good (invalid object, forbidden, missing target). */
    public static final String ACTION_FAILED = "ActionFailed";
    /** A {@code runbook.dev/...} annotation on the resource has a value the operator does not know. */
    public static final String INVALID_ANNOTATION = "InvalidAnnotation";
    /** Anything else that is not worth retrying quickly: a bug, reported rather than hidden. */
    public static final String INTERNAL_ERROR = "InternalError";

    /** The API server was unreachable or overloaded; retried with backoff. */
    public static final String API_UNAVAILABLE = "ApiUnavailable";
    /**
     * The worker process that runs the bundle's rules died or was killed (it ran past its bound, burned CPU
     * while idle); a new one is started, and the cycle is retried with backoff (docs/security.md).
     */
    public static final String WORKER_STOPPED = "WorkerStopped";
    /** The object changed under the operator more often than it retried; retried with backoff. */
    public static final String CONFLICT = "Conflict";
}
