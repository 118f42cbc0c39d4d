package dev.runbook.operator.record;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.operator.act.AppliedAction;
import dev.runbook.operator.error.Failure;

import java.time.Duration;
import java.util.List;

/**
 * Everything one cycle did, for the record phase: its id (it names the cycle in logs), the bundle, the
 * mode it ran in, the decision (null when the cycle stopped before the rules came to a decision), the
 * actions applied with their outcomes, the action that failed, the failure, if any, how long the
 * cycle took up to the record phase, and whether the rules ran in a worker process.
 */
public record CycleReport(
        String cycleId,
        String bundle,
        String bundleVersion,
        BundleSpec.Mode mode,
        boolean paused,
        Decision decision,
        List<AppliedAction> applied,
        PlannedAction failedAction,
        Failure failure,
        Duration took,
        boolean isolated) {

    public CycleReport {
        applied = List.copyOf(applied);
    }

    /** A cycle whose rules ran in the operator's process. */
    public CycleReport(String cycleId, String bundle, String bundleVersion, BundleSpec.Mode mode, boolean paused,
                       Decision decision, List<AppliedAction> applied, PlannedAction failedAction, Failure failure,
                       Duration took) {
        this(cycleId, bundle, bundleVersion, mode, paused, decision, applied, failedAction, failure, took, false);
    }

    /** Whether the plan was meant to be applied: enforce mode, not paused. */
    public boolean acting() { return mode == BundleSpec.Mode.ENFORCE && !paused; }

    /**
     * Whether the cycle found everything in place: a valid plan, applied (enforce, not paused), nothing
     * failed, and every action's outcome {@code NONE}. Such a cycle tells nothing new: the record phase
     * leaves {@code status.lastCycle} and {@code RunbookApplied} as the cycle before wrote them.
     */
    public boolean settled() {
        return acting() && failure == null && failedAction == null && decision != null && decision.isValid()
                && applied.stream().noneMatch(AppliedAction::changedSomething);
    }

    /** {@code enforce}, {@code observe} or {@code paused}: how the cycle treated its plan. */
    public String modeName() {
        return paused ? "paused" : mode.name().toLowerCase(java.util.Locale.ROOT);
    }
}
