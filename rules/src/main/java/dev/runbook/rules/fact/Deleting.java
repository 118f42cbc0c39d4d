package dev.runbook.rules.fact;

import java.time.Duration;
import java.time.Instant;

/**
 * The primary is being deleted: it has a {@code deletionTimestamp}, and the API server keeps it only
 * while finalizers remain. Inserted by the engine whenever the primary is deleting, so a cleanup rule
 * says {@code Deleting()} in its conditions and ends with {@code finishCleanup($primary)}.
 *
 * <p>{@link #getDeadline()} is when the operator releases the primary whatever the rules say (the
 * bundle's {@code cleanup.deadline} after {@link #getSince()}); null when the bundle declares no
 * cleanup, and then no finalizer holds the primary and nothing waits for the rules.
 */
public final class Deleting {
    private final ObjectRef primary;
    private final Instant since;
    private final Instant deadline;

    public Deleting(ObjectRef primary, Instant since, Duration cleanupDeadline) {
        if (primary == null || since == null) throw new IllegalArgumentException("Deleting needs the primary and its deletionTimestamp");
        this.primary = primary;
        this.since = since;
        this.deadline = cleanupDeadline == null ? null : since.plus(cleanupDeadline);
    }

    public ObjectRef getPrimary() { return primary; }

    /** The primary's {@code metadata.deletionTimestamp}. */
    public Instant getSince() { return since; }

    /** When the finalizer is released whatever the rules say; null without a bundle cleanup deadline. */
    public Instant getDeadline() { return deadline; }

    /** Whether the deadline has passed at {@code now}. */
    public boolean isOverdue(Instant now) { return deadline != null && !now.isBefore(deadline); }

    @Override
    public String toString() {
        return "Deleting( " + primary + ", since=" + since + (deadline == null ? "" : ", deadline=" + deadline) + " )";
    }
}
