package dev.runbook.cli.command;

import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.testkit.invariant.Invariants;
import dev.runbook.engine.policy.Policy;
import dev.runbook.testkit.scenario.Scenario;
import dev.runbook.testkit.scenario.ScenarioResult;
import dev.runbook.testkit.scenario.ScenarioRunner;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs scenarios and prints them as {@code runbook test} does: one line per scenario, a diff-like
 * explanation under each failure. Shared by a single run and by {@code --watch}.
 */
final class ScenarioRun {
    private final ScenarioRunner runner;

    /**
     * @param invariants checked after every step of every scenario (the bundle's {@code invariants/})
     * @param policy     the administrator's policy every plan is checked against
     */
    ScenarioRun(Invariants invariants, Policy policy) {
        this.runner = new ScenarioRunner(java.time.Clock.systemUTC(), invariants, policy);
    }

    /** How the scenarios went. */
    record Outcome(List<ScenarioResult> results, int failed) {
        int passed() { return results.size() - failed; }
    }

    Outcome run(CompiledBundle bundle, List<Scenario> scenarios, PrintWriter out) {
        List<ScenarioResult> results = new ArrayList<>();
        int failed = 0;
        for (Scenario scenario : scenarios) {
            ScenarioResult result = runner.run(bundle, scenario);
            results.add(result);
            out.printf("%s %s (%d ms)%n", result.passed() ? "PASS" : "FAIL", scenario.displayName(), result.took().toMillis());
            if (!result.passed()) {
                failed++;
                for (String failure : result.failures()) out.println("    " + failure.replace("\n", "\n    "));
            }
        }
        return new Outcome(results, failed);
    }
}
