package dev.runbook.engine.bundle;

import java.time.Duration;

/**
 * A bundle's {@code cleanup:} section: its rules act on a deleted primary, so the operator holds each
 * primary with the finalizer {@link #finalizer(String)} until a rule adds {@code finishCleanup} or the
 * {@code deadline} after the deletion passes (then the operator releases it with a Warning event).
 */
public record Cleanup(Duration deadline) {
    public static final Duration DEFAULT_DEADLINE = Duration.ofMinutes(10);

    public Cleanup {
        if (deadline == null || deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("a cleanup deadline must be longer than 0s");
        }
    }

    /** The finalizer of bundle {@code bundleName}: {@code runbook.dev/NAME}. */
    public static String finalizer(String bundleName) {
        return "runbook.dev/" + bundleName;
    }
}
