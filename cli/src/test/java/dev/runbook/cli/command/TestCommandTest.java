package dev.runbook.cli.command;

import dev.runbook.operator.testkit.ProjectFiles;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TestCommandTest {
    private static final String EXAMPLE = ProjectFiles.of("engine/src/test/resources/bundles/example").toString();

    @Test
    void aRuleThatNeverEndsExitsTwoWithOneLineNamingIt() {
        CommandResult result = CommandResult.run("test",
                ProjectFiles.of("engine/src/test/resources/bundles/contained/loop-in-consequence").toString());

        assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(2);
        assertThat(result.err().strip()).startsWith("runbook: rule 'Loop forever' exceeded its deadline")
                .doesNotContain("\tat ").doesNotContain("Exception");
    }

    @Test
    void aBundleThatCallsExitIsRefusedAndExitsTwo() {
        CommandResult result = CommandResult.run("test",
                ProjectFiles.of("engine/src/test/resources/bundles/contained/exit-in-consequence").toString());

        assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(2);
        assertThat(result.err()).startsWith("rules/attack.drl:9:12: java.lang.System.exit is not allowed in rules");
    }

    @Test
    void passingScenariosPrintOneLineEachAndAClosingCount() {
        CommandResult result = CommandResult.run("test", EXAMPLE);

        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
        assertThat(result.out().lines().filter(l -> l.startsWith("PASS tests/"))).hasSize(4);
        assertThat(result.out().lines().reduce((a, b) -> b)).contains("4 passed, 0 failed");
    }

    @Test
    void failingScenariosExitOneAndExplain() {
        CommandResult result = CommandResult.run("test", EXAMPLE, EXAMPLE + "/failing-tests/wrong.yaml");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.out()).contains("FAIL failing-tests/wrong.yaml: expects an action that is not planned")
                .contains("    failing-tests/wrong.yaml:21: expected an action matching")
                .contains("0 passed, 10 failed");
    }

    @Test
    void aBadScenarioFileExitsTwoNamingItsPlace() {
        CommandResult result = CommandResult.run("test", EXAMPLE, EXAMPLE + "/bad-tests/unknown-key.yaml");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).startsWith("bad-tests/unknown-key.yaml:6:3: expect.actoins: unknown key");
    }

    @Test
    void coverageListsTheRulesNoScenarioFired() {
        CommandResult result = CommandResult.run("test", EXAMPLE, EXAMPLE + "/tests/drift.yaml", "--coverage");

        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("rules fired in no scenario:")
                .contains("    Promote the most advanced ready replica when the primary has failed")
                .doesNotContain("    Keep the store's configuration");
    }

    @Test
    void scenarioPathsMayBeGivenFromTheBundleAsWellAsFromHere() {
        CommandResult fromTheBundle = CommandResult.run("test", EXAMPLE, "failing-tests/wrong.yaml");
        assertThat(fromTheBundle.exitCode()).as(fromTheBundle.err()).isEqualTo(1);
        assertThat(fromTheBundle.out()).contains("0 passed, 10 failed");

        CommandResult nowhere = CommandResult.run("test", EXAMPLE, "tests/nope.yaml");
        assertThat(nowhere.exitCode()).isEqualTo(2);
        assertThat(nowhere.err()).startsWith("tests/nope.yaml: no such scenario file, here or in the bundle");
    }
}
