package dev.runbook.operator.cli;

import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.invariant.Invariants;
import dev.runbook.engine.problem.Problem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code runbook lint BUNDLE}: compile the bundle (and its invariants) and report every problem with its place. */
@Command(name = "lint", description = "Compile a bundle and report problems as file:line:col: message.")
final class LintCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "BUNDLE", description = "The bundle directory (it holds bundle.yaml).")
    Path bundle;

    @Spec
    CommandSpec spec;

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        var err = spec.commandLine().getErr();
        return Failures.guard(err, () -> {
            CompiledBundle compiled = BundleArgument.compile(bundle);
            for (Problem warning : compiled.warnings()) err.println("warning: " + warning);
            out.printf("bundle %s %s: %s, %s: OK%n", compiled.name(), compiled.spec().version(),
                    count(compiled.ruleNames().size(), "rule"), count(compiled.templates().names().size(), "template"));
            out.printf("content version %s%n", compiled.version());
            Invariants invariants = Invariants.load(bundle);
            if (!invariants.isEmpty()) out.printf("invariants: %s: OK%n", count(invariants.names().size(), "rule"));
            return RunbookCommand.OK;
        });
    }
}
