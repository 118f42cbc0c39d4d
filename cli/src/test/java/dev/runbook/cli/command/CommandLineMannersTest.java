package dev.runbook.cli.command;

import dev.runbook.operator.command.ExitCodes;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.time.Clock;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a command line owes its user before any work: {@code --help} on every command (exit 0, even
 * where parameters are required), the nearest command or option to a mistyped one, and the usage, with
 * exit 2, when no command is given.
 */
class CommandLineMannersTest {
    @TestFactory
    Stream<DynamicTest> everyCommandAnswersHelpWithItsUsage() {
        return RunbookCommand.commandLine(Clock.systemUTC()).getSubcommands().keySet().stream()
                .map(command -> DynamicTest.dynamicTest(command + " --help", () -> {
                    CommandResult result = CommandResult.run(command, "--help");
                    assertThat(result.exitCode()).as(result.err()).isZero();
                    assertThat(result.out()).startsWith("Usage: runbook " + command + " ").contains("-h, --help");
                    assertThat(result.err()).isEmpty();
                }));
    }

    @Test
    void theCommandsAreTheOnesTheDocsList() {
        assertThat(RunbookCommand.commandLine(Clock.systemUTC()).getSubcommands().keySet())
                .containsExactlyInAnyOrder("lint", "plan", "test", "explore", "pack", "run", "new", "rbac", "why", "sandbox", "worker-host");
    }

    @Test
    void noCommandPrintsTheUsageAndIsBadInput() {
        CommandResult result = CommandResult.run();

        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.out()).isEmpty();
        assertThat(result.err()).startsWith("runbook: give a command\nUsage: runbook ").contains("lint", "test", "pack");
    }

    @Test
    void aMistypedCommandOrOptionGetsTheNearestOnes() {
        CommandResult command = CommandResult.run("tets", "runbooks/app-release");
        assertThat(command.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(command.err()).contains("Did you mean: runbook test?");

        CommandResult option = CommandResult.run("test", "runbooks/app-release", "--polcy", "policy.yaml");
        assertThat(option.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(option.err()).contains("Unknown option: '--polcy'", "Possible solutions: --policy");
    }
}
