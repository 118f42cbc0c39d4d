package dev.runbook.testkit.scenario;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/** How one scenario went: its failures (empty when it passed) and every rule that fired in any of its cycles. */
public record ScenarioResult(Scenario scenario, List<String> failures, Set<String> firedRules, Duration took) {
    public ScenarioResult {
        failures = List.copyOf(failures);
        firedRules = Set.copyOf(firedRules);
    }

    public boolean passed() { return failures.isEmpty(); }
}
