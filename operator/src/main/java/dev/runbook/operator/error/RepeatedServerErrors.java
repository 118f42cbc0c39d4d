package dev.runbook.operator.error;

import io.fabric8.kubernetes.client.KubernetesClientException;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A 500 from the API server is usually the server's trouble, and retried as temporary; but an API
 * server also answers 500 to some invalid objects (a field the template rendered as a mapping where a
 * string belongs, say), and that answer never changes. So the same action failing with 500 for the
 * same primary {@link #PERMANENT_AFTER} times in a row is reported as permanent, with the server's own
 * message, instead of being retried forever. Any other outcome of that primary's cycle starts the
 * count again.
 *
 * <p>The one piece of memory a controller keeps between cycles, and it only changes how an error is
 * reported: the decision never depends on it.
 */
public final class RepeatedServerErrors {
    public static final int PERMANENT_AFTER = 5;
    /** Entries kept at most; a primary deleted while failing leaves its entry behind until then. */
    static final int MAX_ENTRIES = 10_000;

    private record Streak(String action, int count) {}

    private final Map<String, Streak> streaks = new ConcurrentHashMap<>();

    /**
     * @param primary the primary's identity (kind, namespace, name)
     * @param error   what the cycle caught (an {@link ActionFailedException} for a failed action)
     * @param failure how {@link ErrorMapping} classified it
     * @return {@code failure}, or a permanent one when the same action met its {@value #PERMANENT_AFTER}th 500 in a row
     */
    public Failure judge(String primary, Throwable error, Failure failure) {
        if (!(error instanceof ActionFailedException action) || serverError(error) == null) {
            streaks.remove(primary);
            return failure;
        }
        if (streaks.size() >= MAX_ENTRIES) streaks.clear();
        Streak streak = streaks.merge(primary, new Streak(action.action(), 1),
                (old, one) -> old.action().equals(one.action()) ? new Streak(old.action(), old.count() + 1) : one);
        if (streak.count() < PERMANENT_AFTER) return failure;
        return new Failure(Failure.Kind.PERMANENT, Reasons.ACTION_FAILED, action.action() + ": the API server answered 500 "
                + streak.count() + " times in a row (" + serverError(error).getMessage() + "); reported as permanent, as the "
                + "object is probably invalid: check what the template or rule renders from the spec", action.rules());
    }

    /** The cycle ended without an error: the next 500 starts a new count. */
    public void succeeded(String primary) {
        streaks.remove(primary);
    }

    private static KubernetesClientException serverError(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof KubernetesClientException api && api.getCode() == 500) return api;
        }
        return null;
    }
}
