package dev.runbook.testkit.explore;

import dev.runbook.testkit.scenario.WorldChange;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One step as it ran: its name, the time it let pass, every world change made before its cycle
 * (the world's reactions, healing, then the faults), and, for the last step of a convergence, the
 * status the primary had to reach. A drill step of the scenario the explorer writes.
 *
 * @param expectStatus the status the step's cycle must leave, or null
 */
public record StepRecord(String name, Duration advance, List<WorldChange> changes, Map<String, Object> expectStatus) {
    public StepRecord {
        changes = List.copyOf(changes);
    }
}
