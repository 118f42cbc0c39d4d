package dev.runbook.cli.command;

import dev.runbook.operator.command.ExitCodes;
import dev.runbook.operator.command.Failures;

import dev.runbook.cli.scaffold.NewBundle;
import dev.runbook.cli.scaffold.Scaffold;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code runbook new NAME --kind GROUP/VERSION/KIND [--dir PARENT]}: writes a new bundle, PARENT/NAME,
 * that lints and passes its scenario as written (docs/tutorial.md).
 */
@Command(name = "new", description = "Write a new bundle that lints and passes its tests: bundle.yaml, a CRD, a rule, a template, a sample, a scenario, a README.")
final class NewCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "NAME", description = "The bundle's name, a DNS label; also its directory.")
    String name;

    @Option(names = "--kind", required = true, paramLabel = "GROUP/VERSION/KIND",
            description = "The custom resource the bundle reconciles, e.g. demo.example.com/v1alpha1/Demo.")
    String kind;

    @Option(names = "--dir", paramLabel = "PARENT", defaultValue = ".", description = "Where to create NAME/ (default: the current directory).")
    Path parent;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        return Failures.guard(spec.commandLine().getErr(), () -> {
            NewBundle bundle = NewBundle.of(name, kind);
            Path directory = parent.resolve(name);
            for (String file : Scaffold.write(directory, bundle)) out.println("wrote " + name + "/" + file);
            out.println("next: runbook lint " + name + " && runbook test " + name + " (docs/tutorial.md)");
            out.flush();
            return ExitCodes.OK;
        });
    }
}
