package dev.runbook.cli.command;

import dev.runbook.operator.testkit.ProjectFiles;
import dev.runbook.engine.hostile.HostileBundle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;
import java.util.TimeZone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Every bundle of the hostile corpus (engine/src/test/resources/bundles/hostile) through the commands
 * an author and a release pipeline run: {@code runbook lint} names the place of the refusal,
 * {@code runbook pack}'s check refuses to print the ConfigMap, {@code runbook test} runs no scenario;
 * each exits 2 and none of the payloads runs.
 */
class HostileBundlesCommandsTest {
    private TimeZone zone;

    static List<HostileBundle> corpus() {
        return HostileBundle.all(ProjectFiles.of("engine/src/test/resources/bundles/hostile"));
    }

    @BeforeEach
    void rememberTheZone() {
        zone = TimeZone.getDefault();
    }

    @AfterEach
    void undoAnyPayload() {
        corpus().forEach(b -> b.reset(zone));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void lintPackAndTestRefuseItAtItsPlaceAndRunNothing(HostileBundle bundle) {
        bundle.reset(zone);
        String dir = bundle.directory().toString();

        CommandResult lint = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> CommandResult.run("lint", dir));
        CommandResult pack = CommandResult.run("pack", dir);
        CommandResult test = CommandResult.run("test", dir);

        assertThat(lint.exitCode()).as(lint.err()).isEqualTo(2);
        assertThat(lint.err()).startsWith(bundle.refusedAt() + ":");
        assertThat(lint.err().lines().findFirst().orElseThrow()).contains(bundle.mentions());
        assertThat(pack.exitCode()).as(pack.err()).isEqualTo(2);
        assertThat(pack.out()).as("pack prints no ConfigMap for a refused bundle").isEmpty();
        assertThat(pack.err()).startsWith(bundle.refusedAt() + ":");
        assertThat(test.exitCode()).as(test.err()).isEqualTo(2);
        assertThat(test.out()).doesNotContain("PASS").doesNotContain("FAIL");
        assertThat(test.err()).startsWith(bundle.refusedAt() + ":");
        assertThat(bundle.payloadRan()).as("the payload of %s must not have run", bundle).isFalse();
    }
}
