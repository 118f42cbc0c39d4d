package dev.runbook.operator.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LintCommandTest {

    @Test
    void aGoodBundlePasses() {
        CommandResult result = CommandResult.run("lint", ProjectFiles.of("runbooks/postgres-cluster").toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).contains("bundle postgres-cluster", "rules", ": OK");
    }

    @Test
    void aSyntaxErrorIsPrintedAsFileLineColumnAndExitsTwo() {
        CommandResult result = CommandResult.run("lint", ProjectFiles.of("engine/src/test/resources/bundles/broken-syntax").toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.out()).isEmpty();
        assertThat(result.err()).startsWith("rules/failover.drl:8:1: mismatched input 'then'");
    }

    @Test
    void aTypeErrorPointsAtTheUnknownField() {
        CommandResult result = CommandResult.run("lint", ProjectFiles.of("engine/src/test/resources/bundles/broken-type").toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).startsWith("rules/status.drl:9:36: ").contains("readyness");
    }

    @Test
    void aDirectoryWithoutBundleYamlIsNamed() {
        CommandResult result = CommandResult.run("lint", ProjectFiles.of("runbooks/postgres-cluster/rules").toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("bundle.yaml: missing");
    }
}
