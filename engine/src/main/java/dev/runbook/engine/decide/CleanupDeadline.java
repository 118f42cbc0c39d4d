package dev.runbook.engine.decide;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.rules.action.EmitEvent;
import dev.runbook.rules.action.FinishCleanup;
import dev.runbook.rules.fact.Deleting;
import dev.runbook.rules.fact.Primary;
import dev.runbook.rules.function.Durations;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The deletion side of a cycle: the {@link Deleting} fact for a primary being deleted, and the plan
 * when the bundle's cleanup deadline has passed. Past the deadline the rules no longer decide: the plan
 * is a Warning event and {@code finishCleanup}, with no rule to fail or conflict, so a broken cleanup
 * runbook can delay a deletion but never block it.
 */
public final class CleanupDeadline {
    /** What plans name as the reason for the actions the deadline adds. */
    public static final String REASON = "(the bundle's cleanup deadline)";
    public static final String EVENT_REASON = "CleanupDeadlineExceeded";

    private CleanupDeadline() {}

    /** The Deleting fact for the primary, when it is being deleted. */
    public static Optional<Deleting> deleting(BundleSpec spec, Primary primary) {
        Instant since = primary.getDeletionTimestamp();
        if (since == null) return Optional.empty();
        Duration deadline = spec.hasCleanup() ? spec.cleanup().deadline() : null;
        return Optional.of(new Deleting(primary.getRef(), since, deadline));
    }

    /** The plan that releases the primary, when its cleanup deadline has passed at {@code now}. */
    public static Optional<List<PlannedAction>> overduePlan(BundleSpec spec, Primary primary, Instant now) {
        Optional<Deleting> deleting = deleting(spec, primary);
        if (deleting.isEmpty() || !deleting.get().isOverdue(now)) return Optional.empty();
        String message = "cleanup did not finish within " + Durations.format(spec.cleanup().deadline())
                + " of the deletion; releasing the finalizer " + spec.finalizer() + " without it";
        return Optional.of(List.of(
                new PlannedAction(new EmitEvent(primary.getRef(), "Warning", EVENT_REASON, message), List.of(REASON)),
                new PlannedAction(new FinishCleanup(primary.getRef(), spec.finalizer()), List.of(REASON))));
    }
}
