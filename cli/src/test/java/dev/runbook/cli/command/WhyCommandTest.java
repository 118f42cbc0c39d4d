package dev.runbook.cli.command;

import dev.runbook.operator.command.ExitCodes;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What `runbook why` refuses before it reaches a cluster, and what it says when nothing answers. */
class WhyCommandTest {
    @Test
    void aKubeconfigThatIsNotThereIsBadInput() {
        CommandResult result = CommandResult.run("why", "pg", "-n", "databases", "--kubeconfig", "/nonexistent");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("/nonexistent: --kubeconfig: no such file");
    }

    @Test
    void decisionGoesWithHistoryAndRuleWithoutIt() {
        CommandResult decision = CommandResult.run("why", "databases/pg", "--decision", "x-1");
        assertThat(decision.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(decision.err()).isEqualTo("--decision: goes with --history\n");

        CommandResult rule = CommandResult.run("why", "databases/pg", "--history", "--rule", "Start");
        assertThat(rule.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(rule.err()).startsWith("--rule: explains the decision made now");
    }

    @Test
    void dashNAndASlashNameMustAgree() {
        CommandResult result = CommandResult.run("why", "databases/pg", "-n", "staging", "--history",
                "--operator-url", "http://127.0.0.1:1");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).isEqualTo("databases/pg: names namespace databases but -n says staging: give one of them\n");
    }

    @Test
    void anOperatorUrlThatIsNoUrlIsBadInputAndOneThatDoesNotAnswerIsSaid() {
        CommandResult notUrl = CommandResult.run("why", "databases/pg", "--history", "--operator-url", "not a url");
        assertThat(notUrl.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(notUrl.err()).startsWith("--operator-url: 'not a url' is not a URL");

        CommandResult silent = CommandResult.run("why", "databases/pg", "--history", "--operator-url", "http://127.0.0.1:1");
        assertThat(silent.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(silent.err()).startsWith("runbook: http://127.0.0.1:1/decisions/databases/pg does not answer: ");
    }
}
