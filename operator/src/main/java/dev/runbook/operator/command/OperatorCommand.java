package dev.runbook.operator.command;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * The operator's own entry point, the one its image runs: {@code run} (the operator) and {@code worker-host}
 * (the pod's second container, which starts the worker processes), and no command that only a person at a
 * terminal uses. The full {@code runbook} command line ({@code dev.runbook.cli.Runbook}, in the cli module)
 * offers these two beside the others; the image's class path holds neither that module nor the sandbox
 * (docs/architecture.md#modules-by-what-ships).
 */
@Command(name = "runbook",
        // Inherited: --help and --version on every command, answered before its parameters are checked.
        scope = CommandLine.ScopeType.INHERIT,
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "The Runbook operator: run it against the cluster, or host its worker processes.",
        subcommands = {RunCommand.class, WorkerHostCommand.class})
public final class OperatorCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        return noCommand(spec);
    }

    public static void main(String[] args) {
        System.exit(execute(new CommandLine(new OperatorCommand()), new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** No command: the usage, on standard error, and the exit code of bad input (as git, kubectl and helm do). */
    public static int noCommand(CommandLine.Model.CommandSpec spec) {
        spec.commandLine().getErr().println("runbook: give a command");
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.BAD_INPUT;
    }

    /** Runs {@code commandLine} on these streams: bad options exit {@link ExitCodes#BAD_INPUT}. */
    public static int execute(CommandLine commandLine, PrintWriter out, PrintWriter err, String... args) {
        commandLine.setOut(out);
        commandLine.setErr(err);
        // `run --bundle DIR --frobnicate` is an unknown option, not a second bundle directory named --frobnicate.
        commandLine.setUnmatchedOptionsAllowedAsOptionParameters(false);
        commandLine.setParameterExceptionHandler((e, a) -> {
            err.println("runbook: " + e.getMessage());
            // A mistyped command or option: the nearest ones it could be; otherwise the usage.
            if (!CommandLine.UnmatchedArgumentException.printSuggestions(e, err)) e.getCommandLine().usage(err);
            return ExitCodes.BAD_INPUT;
        });
        int code = commandLine.execute(args);
        out.flush();
        err.flush();
        return code;
    }
}
