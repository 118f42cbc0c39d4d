package dev.runbook.operator.command;

import dev.runbook.cli.command.CommandResult;
import dev.runbook.cli.command.RunbookCommand;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.util.Map;

/** Runs the whole command line with {@code run}'s environment replaced (in the command's package, to set it). */
final class RunWithEnvironment {
    private RunWithEnvironment() {}

    static CommandResult run(Map<String, String> environment, String... args) {
        CommandLine commandLine = RunbookCommand.commandLine(Clock.systemUTC());
        RunCommand command = commandLine.getSubcommands().get("run").getCommand();
        command.environment = environment;
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = RunbookCommand.execute(commandLine, new PrintWriter(out), new PrintWriter(err), args);
        return new CommandResult(code, out.toString(), err.toString());
    }
}
