package dev.runbook.instance.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RecoveryTest {
    private final ObjectStore store = new ObjectStore("s3://backups", Optional.empty(), "pg", "", "");
    private final List<BackupInfo> inStore = List.of(
            backup("20261201T100000", "pg-backup-a", "DONE", "2026-12-01T10:00:05Z"),
            backup("20261201T110000", "pg-backup-b", "DONE", "2026-12-01T11:00:05Z"),
            backup("20261201T120000", "pg-backup-c", "FAILED", null));

    private static BackupInfo backup(String id, String name, String status, String end) {
        return new BackupInfo(id, name, status, 1, "", "", end == null ? null : Instant.parse(end));
    }

    @Test
    void byNameOrIdElseTheNewestComplete() {
        assertThat(new Recovery(store, Optional.of("pg-backup-a"), Optional.empty()).choose(inStore).id()).isEqualTo("20261201T100000");
        assertThat(new Recovery(store, Optional.of("20261201T110000"), Optional.empty()).choose(inStore).name()).isEqualTo("pg-backup-b");
        assertThat(new Recovery(store, Optional.empty(), Optional.empty()).choose(inStore).name()).isEqualTo("pg-backup-b");
    }

    @Test
    void withATargetTimeTheNewestThatEndedBeforeIt() {
        Recovery pitr = new Recovery(store, Optional.empty(), Optional.of(Instant.parse("2026-12-01T10:30:00Z")));
        assertThat(pitr.choose(inStore).name()).isEqualTo("pg-backup-a");
        assertThat(pitr.targetTimeSetting()).contains("2026-12-01 10:30:00+00");
        assertThatThrownBy(() -> new Recovery(store, Optional.empty(), Optional.of(Instant.parse("2026-12-01T09:00:00Z"))).choose(inStore))
                .hasMessageContaining("no backup in s3://backups/pg ended before the target time 2026-12-01T09:00:00Z");
    }

    @Test
    void aMissingBackupIsNamedWithWhatTheStoreHas() {
        assertThatThrownBy(() -> new Recovery(store, Optional.of("pg-backup-x"), Optional.empty()).choose(inStore))
                .isInstanceOf(RestoreFailed.class)
                .hasMessage("backup 'pg-backup-x' not found in s3://backups/pg; the store has: pg-backup-a, pg-backup-b");
        assertThatThrownBy(() -> new Recovery(store, Optional.empty(), Optional.empty()).choose(List.of()))
                .hasMessage("no complete backup in s3://backups/pg; the store has: (nothing)");
    }

    @Test
    void readFromTheRecoveryVariables() {
        Recovery r = Recovery.fromEnvironment(Map.of("RECOVERY_DESTINATION_PATH", "s3://old", "RECOVERY_SERVER_NAME", "pg",
                "RECOVERY_BACKUP_NAME", "", "RECOVERY_TARGET_TIME", "2026-12-01T11:05:00+01:00"), "restored").orElseThrow();
        assertThat(r.store().serverName()).isEqualTo("pg");
        assertThat(r.backupName()).isEmpty();
        assertThat(r.targetTime()).contains(Instant.parse("2026-12-01T10:05:00Z"));
        assertThat(Recovery.fromEnvironment(Map.of(), "restored")).isEmpty();
        assertThatThrownBy(() -> Recovery.fromEnvironment(Map.of("RECOVERY_DESTINATION_PATH", "s3://old", "RECOVERY_TARGET_TIME", "yesterday"), "x"))
                .hasMessageContaining("RECOVERY_TARGET_TIME is 'yesterday'").hasMessageContaining("spec.bootstrap.recovery.targetTime");
    }

    @Test
    void theRecoverySettingsRestoreFromTheStoreAndPromoteAtTheTarget() {
        Recovery pitr = new Recovery(store, Optional.empty(), Optional.of(Instant.parse("2026-12-01T10:30:00Z")));
        assertThat(Restorer.recoverySettings("'/run/wal-restore' \"%f\" \"%p\"", pitr)).contains(
                "restore_command = '''/run/wal-restore'' \"%f\" \"%p\"'\n",
                "recovery_target_time = '2026-12-01 10:30:00+00'\n",
                "recovery_target_action = 'promote'\n");
        assertThat(Restorer.recoverySettings("x", new Recovery(store, Optional.empty(), Optional.empty()))).doesNotContain("recovery_target_time");
    }
}
