package dev.runbook.testkit.scenario;

import dev.runbook.engine.state.ObservedObject;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One scenario of a bundle's {@code tests/*.yaml}: a starting state, a time, parameter overrides, and
 * either one expectation (a single cycle) or a list of steps (a drill).
 *
 * @param idempotenceSkipped the reason the final idempotence check is skipped, or null when it runs
 */
public record Scenario(
        String file,
        int line,
        String name,
        Instant now,
        Map<String, Object> params,
        String primaryName,
        List<ObservedObject> state,
        Expectation expect,
        List<Step> steps,
        String idempotenceSkipped) {

    public Scenario {
        params = Map.copyOf(params);
        state = List.copyOf(state);
        steps = List.copyOf(steps);
    }

    /** How the scenario is named in reports: {@code tests/failover.yaml: the primary fails}. */
    public String displayName() { return file + ": " + name; }

    public boolean isDrill() { return !steps.isEmpty(); }
}
