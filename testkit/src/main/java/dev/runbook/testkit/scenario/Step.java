package dev.runbook.testkit.scenario;

import java.time.Duration;
import java.util.List;

/**
 * One step of a drill: time advances, the world changes, then one cycle runs and its expectation is
 * checked; the cycle's plan is applied before the next step.
 */
public record Step(String name, int line, Duration advance, List<WorldChange> changes, Expectation expect) {
    public Step {
        changes = List.copyOf(changes);
    }
}
