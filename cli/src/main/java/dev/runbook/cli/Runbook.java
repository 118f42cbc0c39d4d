package dev.runbook.cli;

import dev.runbook.cli.command.RunbookCommand;

import java.io.PrintWriter;
import java.time.Clock;

/**
 * The main class of {@code cli/target/runbook.jar}, which {@code ./runbook} runs: the whole {@code runbook}
 * command line ({@link RunbookCommand}) on the system clock and the process's streams. The operator's image
 * runs {@code dev.runbook.operator.command.OperatorCommand} instead, which offers {@code run} and
 * {@code worker-host} alone.
 */
public final class Runbook {
    private Runbook() {}

    public static void main(String[] args) {
        System.exit(RunbookCommand.execute(Clock.systemUTC(), new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }
}
