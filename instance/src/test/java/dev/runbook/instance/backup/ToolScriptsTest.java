package dev.runbook.instance.backup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runbook.instance.config.Settings;
import dev.runbook.instance.postgres.ConfigFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ToolScriptsTest {
    @TempDir
    Path dir;

    private final ObjectStore store = new ObjectStore("s3://backups/it's", Optional.of("http://127.0.0.1:8333"), "pg", "KEY", "SEC'RET");

    private ConfigFiles files() {
        Settings settings = Settings.fromEnvironment(Map.of("POD_NAME", "pg-0", "POD_NAMESPACE", "db", "CLUSTER_NAME", "pg",
                "PGDATA", dir.resolve("data").toString(), "RUNBOOK_INSTANCE_RUN_DIR", dir.resolve("run").toString(), "POSTGRES_PASSWORD", "pw"));
        ConfigFiles files = new ConfigFiles(settings);
        files.prepareRunDirectory();
        return files;
    }

    @Test
    void theArchiveCommandRunsAScriptThatReadsTheKeysFromAPrivateFile() throws Exception {
        ToolScripts scripts = new ToolScripts(dir.resolve("run"), files());
        String command = scripts.writeArchive(store);
        assertThat(command).isEqualTo("'" + dir.resolve("run/wal-archive") + "' \"%p\"");
        Path env = dir.resolve("run/backup-store.env");
        assertThat(Files.getPosixFilePermissions(env)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.readString(env)).isEqualTo("AWS_ACCESS_KEY_ID='KEY'\nAWS_SECRET_ACCESS_KEY='SEC'\\''RET'\n");
        assertThat(Files.readString(dir.resolve("run/wal-archive"))).doesNotContain("SEC").contains("'s3://backups/it'\\''s' 'pg' \"$1\"");
    }

    @Test
    void aFailedArchiveLeavesTheToolsMessageAndExitsNonZero() throws Exception {
        // A stand-in for barman-cloud-wal-archive on PATH that prints what it was given and fails, as the tool does.
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path tool = bin.resolve("barman-cloud-wal-archive");
        Files.writeString(tool, "#!/bin/sh\necho \"got $# args, last $5, key $AWS_ACCESS_KEY_ID\"\necho 'ERROR: Barman cloud WAL archiver exception: 403 Forbidden'\nexit 4\n");
        Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwx------"));
        new ToolScripts(dir.resolve("run"), files()).writeArchive(store);
        ProcessBuilder withPath = new ProcessBuilder(dir.resolve("run/wal-archive").toString(), "pg_wal/000000010000000000000003");
        withPath.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        Process run = withPath.redirectErrorStream(true).start();
        String out = new String(run.getInputStream().readAllBytes());
        assertThat(run.waitFor()).isEqualTo(4);
        assertThat(out).contains("got 5 args, last pg_wal/000000010000000000000003, key KEY");
        assertThat(Files.readString(dir.resolve("run/" + ToolScripts.ARCHIVE_ERROR))).contains("403 Forbidden");
    }

    @Test
    void archivingIsWrittenIntoTheDataDirectoryAndIncludedOnce() throws Exception {
        ConfigFiles files = files();
        Path data = Files.createDirectories(dir.resolve("data"));
        Files.writeString(data.resolve("postgresql.conf"), "port = 5432\n");
        WalArchiving on = new WalArchiving(Optional.of(store), new ToolScripts(dir.resolve("run"), files), files);
        on.configure(data);
        on.configure(data);
        assertThat(Files.readString(data.resolve("runbook-archive.conf"))).contains("archive_mode = on\n",
                "archive_command = '''" + dir.resolve("run/wal-archive") + "'' \"%p\"'\n", "archive_timeout = '5min'");
        assertThat(Files.readString(data.resolve("postgresql.conf")).split("include_if_exists = 'runbook-archive.conf'", -1)).hasSize(2);
        new WalArchiving(Optional.empty(), new ToolScripts(dir.resolve("run"), files), files).configure(data);
        assertThat(Files.readString(data.resolve("runbook-archive.conf"))).doesNotContain("archive_mode");
    }
}
