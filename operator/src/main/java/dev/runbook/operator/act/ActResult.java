package dev.runbook.operator.act;

import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.operator.error.ActionFailedException;

import java.util.List;

/**
 * What the act phase did: the actions applied in order with their outcomes, and, when one failed,
 * that action and why. The actions after a failed one were not tried; those before it stay applied.
 */
public record ActResult(List<AppliedAction> applied, PlannedAction failed, ActionFailedException failure) {
    public ActResult {
        applied = List.copyOf(applied);
    }

    public static ActResult complete(List<AppliedAction> applied) {
        return new ActResult(applied, null, null);
    }

    public boolean isComplete() { return failure == null; }
}
