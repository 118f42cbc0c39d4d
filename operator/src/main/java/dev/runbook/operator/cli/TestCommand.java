package dev.runbook.operator.cli;

import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.invariant.Invariants;
import dev.runbook.engine.scenario.Scenario;
import dev.runbook.engine.scenario.ScenarioResult;
import dev.runbook.engine.scenario.ScenarioRunner;
import dev.runbook.engine.scenario.ScenarioSuite;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code runbook test BUNDLE [SCENARIO...]}: runs the bundle's scenario files without a cluster.
 * One line per scenario, a diff-like explanation under each failure, and a closing
 * {@code N passed, M failed}. Exit 1 when any scenario failed, 2 when a scenario file is bad.
 */
@Command(name = "test", description = "Run a bundle's scenario tests (tests/*.yaml) on a simulated cluster.")
final class TestCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "BUNDLE", description = "The bundle directory (it holds bundle.yaml).")
    Path bundle;

    @Parameters(index = "1..*", paramLabel = "SCENARIO", description = "Scenario files to run (default: every tests/*.yaml).")
    List<Path> scenarioFiles = new ArrayList<>();

    @Option(names = "--coverage", description = "Also list the rules that no scenario fired.")
    boolean coverage;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        return Failures.guard(spec.commandLine().getErr(), () -> {
            CompiledBundle compiled = BundleArgument.compile(bundle);
            List<Scenario> scenarios = ScenarioSuite.read(bundle, scenarioFiles);
            ScenarioRunner runner = new ScenarioRunner(Invariants.load(bundle));
            List<ScenarioResult> results = new ArrayList<>();
            int failed = 0;
            for (Scenario scenario : scenarios) {
                ScenarioResult result = runner.run(compiled, scenario);
                results.add(result);
                out.printf("%s %s (%d ms)%n", result.passed() ? "PASS" : "FAIL", scenario.displayName(), result.took().toMillis());
                if (!result.passed()) {
                    failed++;
                    for (String failure : result.failures()) out.println("    " + failure.replace("\n", "\n    "));
                }
            }
            if (coverage) {
                List<String> unfired = ScenarioSuite.unfiredRules(compiled, results);
                out.println(unfired.isEmpty() ? "coverage: every rule fired in some scenario"
                        : "coverage: " + unfired.size() + " of " + compiled.ruleNames().size() + " rules fired in no scenario:");
                unfired.forEach(rule -> out.println("    " + rule));
            }
            out.printf("%d passed, %d failed%n", scenarios.size() - failed, failed);
            return failed == 0 ? RunbookCommand.OK : RunbookCommand.CHECK_FAILED;
        });
    }
}
