package dev.runbook.cli.command;

import dev.runbook.operator.command.ExitCodes;
import dev.runbook.operator.command.BundleArgument;
import dev.runbook.operator.command.Failures;
import dev.runbook.operator.command.PolicyOption;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.testkit.invariant.Invariants;
import dev.runbook.testkit.scenario.Scenario;
import dev.runbook.testkit.scenario.ScenarioSuite;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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

    @Mixin
    PolicyOption policy = new PolicyOption();

    @Option(names = "--watch", description = "Keep running: on every save, recompile and rerun the affected scenarios "
            + "(all of them when a rule, template, sample or bundle.yaml changed; a scenario file's own when it changed). "
            + "Stop with Ctrl-C.")
    boolean watch;

    @Spec
    CommandSpec spec;

    /** Runs until the process is stopped. */
    private int watch(PrintWriter out) {
        try (ScenarioWatch watching = new ScenarioWatch(bundle, scenarioFiles, policy.policy(), out, spec.commandLine().getErr())) {
            watching.start();
            watching.awaitClose();
        }
        return ExitCodes.OK;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        return Failures.guard(spec.commandLine().getErr(), () -> {
            if (watch) return watch(out);
            CompiledBundle compiled = BundleArgument.compile(bundle);
            List<Scenario> scenarios = ScenarioSuite.read(bundle, scenarioFiles);
            ScenarioRun.Outcome outcome = new ScenarioRun(Invariants.load(bundle), policy.policy()).run(compiled, scenarios, out);
            int failed = outcome.failed();
            if (coverage) {
                List<String> unfired = ScenarioSuite.unfiredRules(compiled, outcome.results());
                out.println(unfired.isEmpty() ? "coverage: every rule fired in some scenario"
                        : "coverage: " + unfired.size() + " of " + compiled.ruleNames().size() + " rules fired in no scenario:");
                unfired.forEach(rule -> out.println("    " + rule));
            }
            out.printf("%d passed, %d failed%n", scenarios.size() - failed, failed);
            return failed == 0 ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
        });
    }
}
