package dev.runbook.cli;

import dev.runbook.operator.cli.RunbookCommand;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.time.Clock;

/**
 * The whole {@code runbook} command line, the main class of {@code cli/target/runbook.jar}: the
 * operator's commands ({@link RunbookCommand}) and {@code sandbox}, which needs the API server in the
 * JVM that the operator's own runtime leaves out.
 */
public final class Runbook {
    private Runbook() {}

    public static void main(String[] args) {
        System.exit(execute(Clock.systemUTC(), new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs the command with an injected clock and streams, as tests do. */
    public static int execute(Clock clock, PrintWriter out, PrintWriter err, String... args) {
        return RunbookCommand.execute(commandLine(clock), out, err, args);
    }

    /** Every command and option of {@code runbook}, as picocli models them (docs/cli.md is checked against it). */
    public static CommandLine commandLine(Clock clock) {
        CommandLine commandLine = RunbookCommand.commandLine(clock);
        commandLine.addSubcommand(SandboxCommand.class);
        return commandLine;
    }
}
