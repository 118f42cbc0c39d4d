package dev.runbook.operator.reload;

import dev.runbook.operator.testkit.ProjectFiles;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A ConfigMap's bundle is compiled and vetted as the operator holds its files, in memory: vetting
 * works in a process that can make no temporary directory at all (its {@code java.io.tmpdir} does not
 * exist). Vetting that unpacked the ConfigMap into a temporary directory and read it back failed there.
 */
class VettingWithoutDiskTest {

    @Test
    void aConfigMapBundleIsVettedInAProcessThatCanMakeNoTemporaryDirectory() throws Exception {
        Path absent = Path.of("/nonexistent", "runbook-tmp-" + ProcessHandle.current().pid());
        assertThat(absent).doesNotExist();
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(List.of(java.toString(), "-Djava.io.tmpdir=" + absent,
                "-cp", System.getProperty("java.class.path"), VetInMemory.class.getName(),
                ProjectFiles.of("runbooks/app-release").toString()))
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();

        assertThat(output).as("the process can make no temporary directory").contains("no temporary directory can be made");
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).containsPattern("vetted: \\d+ scenarios passed");
        assertThat(Files.exists(absent)).isFalse();
    }
}
