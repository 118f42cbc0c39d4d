package dev.runbook.cli.command;

import dev.runbook.operator.command.ExitCodes;
import dev.runbook.operator.command.BundleArgument;
import dev.runbook.operator.command.Failures;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.testkit.explore.ExploreSpec;
import dev.runbook.testkit.explore.ExploreSpecParser;
import dev.runbook.testkit.explore.Explorer;
import dev.runbook.testkit.invariant.Invariants;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code runbook explore BUNDLE [--runs N] [--steps K] [--seed S] [--out DIR]}: random fault drills on
 * the simulated cluster, checking the bundle's invariants after every cycle and convergence once the
 * faults stop. Each distinct failure is shrunk and written as a scenario file. The last line is
 * {@code explore: N runs, K steps, V invariant violations}; exit 0 with none, 1 with any, 2 on bad input.
 */
@Command(name = "explore", description = "Random fault drills on the simulated cluster, checking the bundle's invariants; "
        + "each failure is shrunk to a scenario file.")
final class ExploreCommand implements Callable<Integer> {
    static final int DEFAULT_RUNS = Explorer.DEFAULT_RUNS;
    static final int DEFAULT_STEPS = Explorer.DEFAULT_STEPS;

    @Parameters(index = "0", paramLabel = "BUNDLE", description = "The bundle directory (it holds bundle.yaml and explore.yaml).")
    Path bundle;

    @Option(names = "--runs", paramLabel = "N", description = "How many runs (default: " + DEFAULT_RUNS + ").")
    int runs = DEFAULT_RUNS;

    @Option(names = "--steps", paramLabel = "K", description = "Fault steps per run, before convergence (default: " + DEFAULT_STEPS + ").")
    int steps = DEFAULT_STEPS;

    @Option(names = "--seed", paramLabel = "S", description = "The seed: the same seed explores the same runs (default: 1).")
    long seed = Explorer.DEFAULT_SEED;

    @Option(names = "--out", paramLabel = "DIR", description = "Where shrunk scenarios are written (default: BUNDLE/explored).")
    Path out;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (runs < 1 || steps < 1) {
            err.println("runbook: --runs and --steps must be 1 or more (given --runs " + runs + " --steps " + steps + ")");
            return ExitCodes.BAD_INPUT;
        }
        return Failures.guard(err, () -> {
            CompiledBundle compiled = BundleArgument.compile(bundle);
            Invariants invariants = Invariants.load(bundle);
            ExploreSpec exploreSpec = ExploreSpecParser.read(bundle);
            Explorer explorer = new Explorer(bundle, compiled, invariants, exploreSpec);
            stdout.printf("explore %s: %d invariants, %d faults, seed %d%n", compiled.name(), invariants.names().size(),
                    explorer.catalogue().size(), seed);
            Explorer.Report report = explorer.explore(
                    new Explorer.Options(runs, steps, seed, out == null ? bundle.resolve("explored") : out), stdout::println);
            stdout.printf("explore: %d runs, %d steps, %d invariant violations%n", report.runs(), report.steps(), report.violations());
            return report.violations() == 0 ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
        });
    }
}
