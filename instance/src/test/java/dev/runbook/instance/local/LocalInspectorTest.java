package dev.runbook.instance.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalInspectorTest {
    @TempDir
    Path dir;

    @Test
    void tellsAnEmptyAPostgresAndAForeignDirectoryApart() throws IOException {
        assertThat(LocalInspector.dataState(dir.resolve("absent"))).isEqualTo(DataState.EMPTY);
        assertThat(LocalInspector.dataState(dir)).isEqualTo(DataState.EMPTY);
        Files.writeString(dir.resolve("notes.txt"), "someone's files");
        assertThat(LocalInspector.dataState(dir)).isEqualTo(DataState.FOREIGN);
        Files.writeString(dir.resolve("PG_VERSION"), "15\n");
        assertThat(LocalInspector.dataState(dir)).isEqualTo(DataState.VALID);
    }

    @Test
    void aStalePidFileIsNoRunningServer() throws IOException {
        assertThat(LocalInspector.postmasterRunning(dir)).isFalse();
        Files.writeString(dir.resolve("postmaster.pid"), ProcessHandle.current().pid() + "\n/data\n");
        assertThat(LocalInspector.postmasterRunning(dir)).isTrue();
        Files.writeString(dir.resolve("postmaster.pid"), "999999999\n");
        assertThat(LocalInspector.postmasterRunning(dir)).isFalse();
    }
}
