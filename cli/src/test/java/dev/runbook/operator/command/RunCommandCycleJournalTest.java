package dev.runbook.operator.command;

import dev.runbook.cli.command.CommandResult;
import dev.runbook.operator.testkit.ProjectFiles;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.runbook.operator.command.RunWithEnvironment.run;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code runbook run --cycle-journal FILE}: a shard member's diagnostic, refused without {@code --shards}. */
class RunCommandCycleJournalTest {
    private static final String BUNDLE = ProjectFiles.of("operator/src/test/resources/bundles/web-app").toString();

    @Test
    void theHelpNamesTheOption() {
        assertThat(run(Map.of(), "run", "--help").out()).contains("--cycle-journal=FILE");
    }

    @Test
    void withoutShardsItIsBadInputNamingTheFix() {
        CommandResult result = run(Map.of(), "run", "--bundle", BUNDLE, "--cycle-journal", "/tmp/cycles.jsonl");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).startsWith("runbook: --cycle-journal records a shard member's cycles: give --shards too");
        assertThat(result.out()).isEmpty();
    }
}
