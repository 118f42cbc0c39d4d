package dev.runbook.engine.decide;

import dev.runbook.rules.action.Action;

import java.util.List;

/** An action of the plan with the rules that asked for it (several rules may want the same thing). */
public record PlannedAction(Action action, List<String> rules) {
    public PlannedAction {
        rules = List.copyOf(rules);
    }

    /** The action's YAML form, for comparing plans: actions compare by form, not by instance. */
    public java.util.Map<String, Object> form() { return action.toMap(); }
}
