package dev.runbook.operator.act;

import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.engine.apply.Outcome;

/** One action of the plan and what applying it did. */
public record AppliedAction(PlannedAction planned, Outcome outcome) {
    public boolean changedSomething() { return outcome != Outcome.NONE; }

    public String identity() { return planned.action().identity(); }
}
