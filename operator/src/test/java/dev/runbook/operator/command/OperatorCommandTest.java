package dev.runbook.operator.command;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/** The image's entry point (deploy/image/config.json): the operator's two commands and nothing a person at a terminal runs. */
class OperatorCommandTest {

    @Test
    void offersRunAndTheWorkerHostAlone() {
        CommandLine commandLine = new CommandLine(new OperatorCommand());
        assertThat(commandLine.getSubcommands().keySet()).containsExactlyInAnyOrder("run", "worker-host");
    }

    @Test
    void aCommandOfTheCommandLineIsAMistypedCommandHere() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = OperatorCommand.execute(new CommandLine(new OperatorCommand()), new PrintWriter(out), new PrintWriter(err), "lint", "runbooks/app-release");
        assertThat(code).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString()).contains("runbook: Unmatched arguments", "lint");
    }

    @Test
    void noCommandPrintsTheUsageAsBadInput() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = OperatorCommand.execute(new CommandLine(new OperatorCommand()), new PrintWriter(out), new PrintWriter(err));
        assertThat(code).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(err.toString()).contains("runbook: give a command", "run", "worker-host");
    }
}
