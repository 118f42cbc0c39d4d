package dev.runbook.operator.error;

import io.fabric8.kubernetes.client.KubernetesClientException;

import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * The one place that retries a write refused with 409 Conflict: a write that carries the
 * resourceVersion it was computed from is refused when the object changed in between, and is then
 * computed again from the object as it is now, up to {@link #attempts()} times in a row. After that
 * the object is changing too fast to win against: the cycle stops with a {@link TemporaryException}
 * (reason {@link Reasons#CONFLICT}), and JOSDK retries the resource later with backoff.
 *
 * <p>Each attempt must read fresh state itself; anything other than a 409 goes through untouched.
 */
public final class ConflictRetry {
    /** How many times a write is computed again on fresh state before the cycle gives up on it. */
    public static final int DEFAULT_ATTEMPTS = 3;
    public static final ConflictRetry DEFAULT = new ConflictRetry(DEFAULT_ATTEMPTS);

    private final int attempts;

    public ConflictRetry(int attempts) {
        if (attempts < 1) throw new IllegalArgumentException("conflict attempts must be at least 1, not " + attempts);
        this.attempts = attempts;
    }

    public int attempts() { return attempts; }

    /**
     * @param attempt reads the object, computes the write and sends it; its result is returned
     * @param giveUp  the message of the failure after {@link #attempts()} conflicts in a row, given
     *                their number: what was being written and to which object
     */
    public <T> T run(Supplier<T> attempt, IntFunction<String> giveUp) {
        for (int tried = 1; ; tried++) {
            try {
                return attempt.get();
            } catch (KubernetesClientException e) {
                if (e.getCode() != ErrorMapping.CONFLICT) throw e;
                if (tried >= attempts) {
                    throw new TemporaryException(new Failure(Failure.Kind.TEMPORARY, Reasons.CONFLICT,
                            giveUp.apply(tried), List.of()), e);
                }
            }
        }
    }
}
