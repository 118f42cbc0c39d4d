package dev.runbook.cli.command;

import dev.runbook.operator.testkit.ProjectFiles;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class ExploreCommandTest {
    private static final String POSTGRES = ProjectFiles.of("runbooks/postgres-cluster").toString();
    private static final String EXAMPLE = ProjectFiles.of("engine/src/test/resources/bundles/example").toString();
    private static final Pattern LAST = Pattern.compile("explore: 3 runs, 4 steps, (\\d+) invariant violations");

    @Test
    void theLastLineCountsTheViolationsAndTheExitCodeFollowsIt(@TempDir Path out) {
        CommandResult result = CommandResult.run("explore", POSTGRES, "--runs", "3", "--steps", "4", "--seed", "5",
                "--out", out.toString());

        String last = result.out().lines().reduce((a, b) -> b).orElse("");
        Matcher m = LAST.matcher(last);
        assertThat(m.matches()).as(result.out() + result.err()).isTrue();
        assertThat(result.exitCode()).isEqualTo(Integer.parseInt(m.group(1)) == 0 ? 0 : 1);
        long invariants = InvariantFiles.rules(Path.of(POSTGRES));
        assertThat(result.out()).startsWith("explore postgres-cluster: " + invariants + " invariants, ")
                .contains(" faults, seed 5");
    }

    @Test
    void noRunsIsBadInput() {
        CommandResult result = CommandResult.run("explore", POSTGRES, "--runs", "0");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("--runs and --steps must be 1 or more");
    }

    @Test
    void aBundleWithoutExploreYamlIsBadInputSayingWhatToWrite() {
        CommandResult result = CommandResult.run("explore", EXAMPLE);

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).startsWith("explore.yaml: missing: explore needs the bundle to say where a run starts");
    }
}
