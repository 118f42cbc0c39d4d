package dev.runbook.sandbox;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reading a bundle's {@code sandbox.yaml}: app-release's drill, and a broken file's messages. */
class DrillTest {
    @Test
    void appReleasesDrillReadsAsItsSteps() {
        Drill drill = Drill.read(Path.of("../runbooks/app-release"));

        assertThat(drill.sample()).isEqualTo(Path.of("../runbooks/app-release/samples/release.yaml"));
        assertThat(drill.steps()).extracting(Drill.Step::action).containsExactly("jobSucceeds", "await", "patch", "await",
                "jobSucceeds", "await", "await", "advance", "await", "delete", "await", "jobSucceeds", "await");
        assertThat(drill.steps().get(1).fields()).isEqualTo(Map.of("status.phase", "Available",
                "status.currentVersion", "1.0.0", "status.readyReplicas", 2));
        assertThat(drill.steps().get(1).settled()).isTrue();
        assertThat(drill.steps().get(6).of()).isEqualTo("Deployment/shop-canary");
        assertThat(drill.steps().get(7).duration()).isEqualTo(Duration.ofMinutes(2));
        assertThat(drill.steps().get(12).argument()).isEqualTo("gone");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "steps: [{note: x}]                                   | sample: is missing",
            "sample: samples/nothere.yaml\\nsteps: [{note: x}]    | does not exist",
            "sample: samples/release.yaml                         | steps: is missing or empty",
            "sample: samples/release.yaml\\nsteps: [{patch: {spec: {}}, delete: true}] | steps[0]: one action per step",
            "sample: samples/release.yaml\\nsteps: [{delete: false}] | steps[0].delete: delete: true deletes the primary",
            "sample: samples/release.yaml\\nsteps: [{await: Ready}]  | steps[0].await: a map of paths to values",
            "sample: samples/release.yaml\\nsteps: [{milestone: m}]  | steps[0]: a step needs an action or a note",
            "sample: samples/release.yaml\\nsteps: [{patch: {spec: {}}, settled: true}] | steps[0].settled: only an await step",
            "sample: samples/release.yaml\\nsteps: [{await: gone, of: Deployment/x}] | steps[0].of: Kind/name",
            "sample: samples/release.yaml\\nsteps: [{jobSucceeds: \"\"}] | steps[0].jobSucceeds: the name of the Job",
    })
    void aBrokenDrillSaysWhereAndWhat(String yaml, String message, @TempDir Path bundle) throws Exception {
        Files.createDirectories(bundle.resolve("samples"));
        Files.writeString(bundle.resolve("samples/release.yaml"), "kind: AppRelease\n");
        Files.writeString(bundle.resolve("sandbox.yaml"), yaml.replace("\\n", "\n"));

        assertThatThrownBy(() -> Drill.read(bundle)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(bundle.resolve("sandbox.yaml") + ": ").hasMessageContaining(message);
    }
}
