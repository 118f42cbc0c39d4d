package dev.runbook.cli.command;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/** What one run of the {@code runbook} command printed and returned; tests of every command use it. */
public record CommandResult(int exitCode, String out, String err) {
    public static final Instant NOW = Instant.parse("2026-11-30T09:00:00Z");

    /** Runs the command in-process with the clock fixed at {@link #NOW}. */
    public static CommandResult run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = RunbookCommand.execute(Clock.fixed(NOW, ZoneOffset.UTC), new PrintWriter(out), new PrintWriter(err), args);
        return new CommandResult(code, out.toString(), err.toString());
    }
}
