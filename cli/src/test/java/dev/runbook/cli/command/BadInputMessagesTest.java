package dev.runbook.cli.command;

import dev.runbook.operator.testkit.ProjectFiles;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Input a user gets wrong, each refused at once with a message that names the file (and line) and
 * what to do: an unknown option after an option that takes several values, a binary file, a state or
 * scenario file too large to parse, a namespace that is a list.
 */
class BadInputMessagesTest {
    private static final String BUNDLE = ProjectFiles.of("runbooks/postgres-cluster").toString();
    private static final String FAILED = ProjectFiles.of("runbooks/postgres-cluster/samples/primary-failed.yaml").toString();

    @TempDir
    Path dir;

    @Test
    void anUnknownOptionAfterSeveralValuesIsAnUnknownOption() {
        CommandResult run = CommandResult.run("run", "--bundle", BUNDLE, "--frobnicate");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Unknown option: '--frobnicate'").doesNotContain("not a directory");

        CommandResult plan = CommandResult.run("plan", BUNDLE, "--state", FAILED, "--frobnicate");
        assertThat(plan.exitCode()).isEqualTo(2);
        assertThat(plan.err()).contains("Unknown option: '--frobnicate'").doesNotContain("cannot be read");
    }

    @Test
    void aBinaryStateFileIsNamedWithWhereItStopsBeingText() throws IOException {
        Path binary = dir.resolve("state.yaml");
        Files.write(binary, new byte[] {'k', 'i', 'n', 'd', ':', ' ', 'P', 'o', 'd', '\n', 'x', (byte) 0xff, (byte) 0xfe, 0, 1});
        CommandResult result = CommandResult.run("plan", BUNDLE, "--state", binary.toString());
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).startsWith(binary + ":2:2: not UTF-8 text (a binary file?): byte 0xff at offset 11")
                .doesNotContain("Input length");
    }

    @Test
    void aStateFileTooLargeIsRefusedBeforeItIsParsed() throws IOException {
        Path big = dir.resolve("big.yaml");
        Files.writeString(big, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: demo}\ndata:\n  big: "
                + "x".repeat(4_000_000) + "\n");
        CommandResult result = CommandResult.run("plan", BUNDLE, "--state", big.toString());
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains(big + ": is 40000", "bytes, more than a state file may be (2097152 bytes)");
    }

    @Test
    void aScenarioFileTooLargeIsRefusedBeforeItIsParsed() throws IOException {
        Path big = dir.resolve("big-scenario.yaml");
        Files.writeString(big, "name: big\ndescription: " + "x".repeat(3_000_000) + "\n");
        CommandResult result = CommandResult.run("test", BUNDLE, big.toString());
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("bytes, more than a scenario file may be (2097152 bytes)");
    }

    @Test
    void aNamespaceThatIsAListIsRefusedNamingTheField() throws IOException {
        Path state = dir.resolve("list-namespace.yaml");
        Files.writeString(state, """
                apiVersion: postgres.runbook.dev/v1alpha1
                kind: PostgresCluster
                metadata:
                  name: pg
                  namespace: [a]
                spec: {instances: 1}
                """);
        CommandResult result = CommandResult.run("plan", BUNDLE, "--state", state.toString(), "--now", "2026-11-30T09:00:00Z");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains(state + ":1:1: PostgresCluster pg: metadata.namespace: expected a single value, not a list");
    }
}
