package dev.runbook.instance.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataDirectorySizeTest {
    @TempDir
    Path data;

    @Test
    void theFilesABaseBackupCopiesButNotTheWal() throws Exception {
        Files.write(data.resolve("PG_VERSION"), new byte[3]);
        Files.createDirectories(data.resolve("base/1"));
        Files.write(data.resolve("base/1/1259"), new byte[8192]);
        Files.createDirectories(data.resolve("pg_wal"));
        Files.write(data.resolve("pg_wal/000000010000000000000001"), new byte[16384]);
        assertThat(DataDirectorySize.of(data)).isEqualTo(8195);
        assertThat(DataDirectorySize.of(data.resolve("missing"))).isZero();
    }
}
