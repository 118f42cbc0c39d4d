package dev.runbook.testkit.explore;

import dev.runbook.testkit.scenario.WorldChange;

import java.time.Duration;
import java.util.List;

/**
 * The faults of one step as drawn: the time the step lets pass and the world changes of its faults.
 * A run is a list of these; shrinking removes and simplifies them.
 */
public record StepPlan(String name, Duration advance, List<WorldChange> changes) {
    public StepPlan {
        changes = List.copyOf(changes);
    }
}
