package dev.runbook.cli.command;

import dev.runbook.operator.command.ExitCodes;
import dev.runbook.operator.command.OperatorCommand;
import dev.runbook.operator.command.RunCommand;
import dev.runbook.operator.command.VersionProvider;
import dev.runbook.operator.command.WorkerHostCommand;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.time.Clock;
import java.util.concurrent.Callable;

/**
 * The {@code runbook} command line for people: every command, the operator's own two ({@code run} and
 * {@code worker-host}, which {@link OperatorCommand}, the image's entry point, offers alone) among them. Exit codes ({@link ExitCodes}): 0 success, 1 a
 * check failed (a refused plan), 2 bad input (unreadable bundle, DRL error, invalid state file), each with a
 * message naming the file.
 */
@Command(name = "runbook",
        // Inherited: --help and --version on every command, answered before its parameters are checked.
        scope = CommandLine.ScopeType.INHERIT,
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Kubernetes operators written as Drools rules.",
        subcommands = {LintCommand.class, PlanCommand.class, TestCommand.class, ExploreCommand.class, PackCommand.class, RunCommand.class,
                NewCommand.class, RbacCommand.class, WhyCommand.class, SandboxCommand.class, WorkerHostCommand.class})
public final class RunbookCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        return OperatorCommand.noCommand(spec);
    }

    /** Runs the command with an injected clock and streams, as tests do. */
    public static int execute(Clock clock, PrintWriter out, PrintWriter err, String... args) {
        return execute(commandLine(clock), out, err, args);
    }

    /** The command line with these commands, for a caller that adds more before {@link #execute(CommandLine, PrintWriter, PrintWriter, String...)}. */
    public static CommandLine commandLine(Clock clock) {
        return new CommandLine(new RunbookCommand(), new Factory(clock));
    }

    /** Runs {@code commandLine} (from {@link #commandLine(Clock)}) on these streams: bad options exit {@link ExitCodes#BAD_INPUT}. */
    public static int execute(CommandLine commandLine, PrintWriter out, PrintWriter err, String... args) {
        return OperatorCommand.execute(commandLine, out, err, args);
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
