package dev.runbook.operator.act;

import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.operator.error.ActionFailedException;

import java.util.List;

/**
 * What the act phase did: the actions applied in order with their outcomes, and, when one failed,
 * that action and why. The actions after a failed one were not tried; those before it stay applied.
 * The primary's own status actions ({@link PrimaryStatus}) are among the applied ones with the outcome
 * they will have, and listed apart in {@code primaryStatus}: the record phase writes them, with its own
 * fields, in the cycle's one status write.
 */
public record ActResult(List<AppliedAction> applied, PlannedAction failed, ActionFailedException failure,
                        List<PlannedAction> primaryStatus) {
    public ActResult {
        applied = List.copyOf(applied);
        primaryStatus = List.copyOf(primaryStatus);
    }

    public static ActResult complete(List<AppliedAction> applied, List<PlannedAction> primaryStatus) {
        return new ActResult(applied, null, null, primaryStatus);
    }

    public boolean isComplete() { return failure == null; }
}
