package dev.runbook.operator.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.time.Clock;
import java.util.concurrent.Callable;

/**
 * The {@code runbook} command as the operator's image runs it: every command but {@code sandbox},
 * which the cli module adds (with the API server it runs in the JVM) to build the full command line,
 * {@code dev.runbook.cli.Runbook}. Exit codes: 0 success, 1 a check failed (a refused plan), 2 bad
 * input (unreadable bundle, DRL error, invalid state file), each with a message naming the file.
 */
@Command(name = "runbook",
        // Inherited: --help and --version on every command, answered before its parameters are checked.
        scope = CommandLine.ScopeType.INHERIT,
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Kubernetes operators written as Drools rules.",
        subcommands = {LintCommand.class, PlanCommand.class, TestCommand.class, ExploreCommand.class, PackCommand.class, RunCommand.class,
                NewCommand.class, RbacCommand.class, WhyCommand.class, WorkerHostCommand.class})
public final class RunbookCommand implements Callable<Integer> {
    public static final int OK = 0;
    public static final int CHECK_FAILED = 1;
    public static final int BAD_INPUT = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** No command: the usage, on standard error, and the exit code of bad input (as git, kubectl and helm do). */
    @Override
    public Integer call() {
        spec.commandLine().getErr().println("runbook: give a command");
        spec.commandLine().usage(spec.commandLine().getErr());
        return BAD_INPUT;
    }

    public static void main(String[] args) {
        System.exit(execute(Clock.systemUTC(), new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs the command with an injected clock and streams, as tests do. */
    public static int execute(Clock clock, PrintWriter out, PrintWriter err, String... args) {
        return execute(commandLine(clock), out, err, args);
    }

    /** The command line with these commands, for a caller that adds more before {@link #execute(CommandLine, PrintWriter, PrintWriter, String...)}. */
    public static CommandLine commandLine(Clock clock) {
        return new CommandLine(new RunbookCommand(), new Factory(clock));
    }

    /** Runs {@code commandLine} (from {@link #commandLine(Clock)}) on these streams: bad options exit {@link #BAD_INPUT}. */
    public static int execute(CommandLine commandLine, PrintWriter out, PrintWriter err, String... args) {
        commandLine.setOut(out);
        commandLine.setErr(err);
        // `run --bundle DIR --frobnicate` is an unknown option, not a second bundle directory named --frobnicate.
        commandLine.setUnmatchedOptionsAllowedAsOptionParameters(false);
        commandLine.setParameterExceptionHandler((e, a) -> {
            err.println("runbook: " + e.getMessage());
            // A mistyped command or option: the nearest ones it could be; otherwise the usage.
            if (!CommandLine.UnmatchedArgumentException.printSuggestions(e, err)) e.getCommandLine().usage(err);
            return BAD_INPUT;
        });
        int code = commandLine.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /** Gives commands the injected clock. */
    private record Factory(Clock clock) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> type) throws Exception {
            if (type == PlanCommand.class) return type.cast(new PlanCommand(clock));
            if (type == WhyCommand.class) return type.cast(new WhyCommand(clock));
            return CommandLine.defaultFactory().create(type);
        }
    }
}
