package dev.runbook.instance.backup;

import dev.runbook.postgres.contract.PostgresContract;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runbook.instance.postgres.CommandFailed;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BackupJobTest {
    private final Clock clock = Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC);
    private final ObjectStore store = new ObjectStore("s3://backups", Optional.empty(), "pg", "k", "s");
    private final BackupJobSettings settings = new BackupJobSettings("db", "pg", "pg-backup-1", "pg-1", store,
            List.of("REDUNDANCY 2", "RECOVERY WINDOW OF 7 DAYS"), Optional.empty(), java.nio.file.Path.of(PostgresContract.CALLER_TOKEN_FILE));
    private final Map<String, String> job = new HashMap<>();
    private final List<String> applied = new ArrayList<>();
    private final BackupInfo info = new BackupInfo("20261201T100000", "pg-backup-1", "DONE", 4096, "000000010000000000000004",
            "000000010000000000000005", Instant.parse("2026-12-01T10:00:07Z"));

    @Test
    void aBackupAnnotatesItsJobAndAppliesEveryRetentionPolicy() {
        int exit = new BackupJob(settings, (pod, name) -> {
            assertThat(pod).isEqualTo("pg-1");
            assertThat(name).isEqualTo("pg-backup-1");
            return info;
        }, (s, policy) -> applied.add(policy), job::putAll, clock).run();
        assertThat(exit).isZero();
        assertThat(applied).containsExactly("REDUNDANCY 2", "RECOVERY WINDOW OF 7 DAYS");
        assertThat(job).containsEntry(PostgresContract.BACKUP_ID, "20261201T100000").containsEntry(PostgresContract.BACKUP_SIZE, "4096")
                .containsEntry(PostgresContract.BACKUP_BEGIN_WAL, "000000010000000000000004").containsEntry(PostgresContract.BACKUP_END_WAL, "000000010000000000000005")
                .containsEntry(PostgresContract.BACKUP_END_TIME, "2026-12-01T10:00:07Z").containsEntry(PostgresContract.BACKUP_ERROR, null);
    }

    @Test
    void aFailedBackupSaysWhyOnItsJobDeletesNothingAndExitsOne() {
        int exit = new BackupJob(settings, (pod, name) -> {
            throw new CommandFailed("barman-cloud-backup exited with 4: 2026-12-01 INFO: starting | ERROR: Backup failed uploading data (403 Forbidden)");
        }, (s, policy) -> applied.add(policy), job::putAll, clock).run();
        assertThat(exit).isEqualTo(1);
        assertThat(applied).as("no retention after a failed backup").isEmpty();
        assertThat(job).containsOnlyKeys(PostgresContract.BACKUP_ERROR);
        assertThat(job.get(PostgresContract.BACKUP_ERROR)).isEqualTo("ERROR: Backup failed uploading data (403 Forbidden)");
    }

    @Test
    void aFailedRetentionKeepsTheBackupAndSaysSo() {
        int exit = new BackupJob(settings, (pod, name) -> info, (s, policy) -> {
            throw new CommandFailed("barman-cloud-backup-delete exited with 1: ERROR: timeout");
        }, job::putAll, clock).run();
        assertThat(exit).isZero();
        assertThat(job).containsEntry(PostgresContract.BACKUP_ID, "20261201T100000")
                .containsEntry(PostgresContract.RETENTION_ERROR,
                "'RECOVERY WINDOW OF 7 DAYS': barman-cloud-backup-delete exited with 1: ERROR: timeout");
    }

    @Test
    void settingsComeFromTheJobsEnvironmentWithClearMessages() {
        Map<String, String> env = new HashMap<>(Map.of("POD_NAMESPACE", "db", "CLUSTER_NAME", "pg", "BACKUP_JOB_NAME", "pg-backup-1",
                "BACKUP_SOURCE_POD", "pg-1", "BACKUP_DESTINATION_PATH", "s3://backups", "BACKUP_RETENTION_COUNT", "3"));
        BackupJobSettings read = BackupJobSettings.fromEnvironment(env);
        assertThat(read.retentionPolicies()).containsExactly("REDUNDANCY 3");
        assertThat(read.store().serverName()).isEqualTo("pg");
        env.put("BACKUP_RETENTION_COUNT", "three");
        assertThatThrownBy(() -> BackupJobSettings.fromEnvironment(env)).hasMessageContaining("BACKUP_RETENTION_COUNT is 'three'");
        env.remove("BACKUP_DESTINATION_PATH");
        assertThatThrownBy(() -> BackupJobSettings.fromEnvironment(env)).hasMessageContaining("BACKUP_DESTINATION_PATH is not set");
        env.put("BACKUP_DESTINATION_PATH", "s3://b");
        env.remove("BACKUP_SOURCE_POD");
        env.put("BACKUP_RETENTION_COUNT", "3");
        assertThatThrownBy(() -> BackupJobSettings.fromEnvironment(env)).hasMessageContaining("BACKUP_SOURCE_POD is not set");
    }
}
