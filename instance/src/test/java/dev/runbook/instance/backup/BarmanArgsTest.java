package dev.runbook.instance.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BarmanArgsTest {
    private final ObjectStore store = new ObjectStore("s3://backups/pg", Optional.of("http://127.0.0.1:8333"), "pg", "KEY", "SECRET");
    private final ObjectStore aws = new ObjectStore("s3://backups/pg", Optional.empty(), "pg", "", "");

    @Test
    void everyToolGetsTheEndpointThenItsOptionsThenDestinationAndServer() {
        assertThat(BarmanArgs.walArchive(store)).containsExactly("barman-cloud-wal-archive", "--endpoint-url", "http://127.0.0.1:8333",
                "s3://backups/pg", "pg");
        assertThat(BarmanArgs.walRestore(aws)).containsExactly("barman-cloud-wal-restore", "s3://backups/pg", "pg");
        assertThat(BarmanArgs.backup(store, "pg-backup-1", "/run/pg", 5432, "postgres")).containsExactly("barman-cloud-backup",
                "--endpoint-url", "http://127.0.0.1:8333", "--immediate-checkpoint", "-h", "/run/pg", "-p", "5432", "-U", "postgres",
                "-n", "pg-backup-1", "s3://backups/pg", "pg");
        assertThat(BarmanArgs.show(aws, "pg-backup-1")).containsExactly("barman-cloud-backup-show", "--format", "json", "s3://backups/pg",
                "pg", "pg-backup-1");
        assertThat(BarmanArgs.list(aws)).containsExactly("barman-cloud-backup-list", "--format", "json", "s3://backups/pg", "pg");
        assertThat(BarmanArgs.delete(aws, "REDUNDANCY 2")).containsExactly("barman-cloud-backup-delete", "--retention-policy",
                "REDUNDANCY 2", "s3://backups/pg", "pg");
        assertThat(BarmanArgs.restore(aws, "20261201T100500", "/data/pgdata.restore")).containsExactly("barman-cloud-restore",
                "s3://backups/pg", "pg", "20261201T100500", "/data/pgdata.restore");
    }

    @Test
    void noCredentialIsOnACommandLineButInTheToolsEnvironment() {
        assertThat(String.join(" ", BarmanArgs.backup(store, "b", "/run", 1, "postgres"))).doesNotContain("KEY").doesNotContain("SECRET");
        assertThat(store.toolEnvironment()).isEqualTo(Map.of("AWS_ACCESS_KEY_ID", "KEY", "AWS_SECRET_ACCESS_KEY", "SECRET"));
        assertThat(aws.toolEnvironment()).isEmpty();
        assertThat(store.toString()).doesNotContain("SECRET").doesNotContain("KEY").contains("s3://backups/pg/pg");
    }

    @Test
    void retentionByCountAndByAgeInWholeDaysRoundedUp() {
        assertThat(BarmanArgs.retentionPolicies(Optional.of(3), Optional.empty())).containsExactly("REDUNDANCY 3");
        assertThat(BarmanArgs.retentionPolicies(Optional.of(2), Optional.of("30d"))).containsExactly("REDUNDANCY 2", "RECOVERY WINDOW OF 30 DAYS");
        assertThat(BarmanArgs.retentionPolicies(Optional.empty(), Optional.of("36h"))).containsExactly("RECOVERY WINDOW OF 2 DAYS");
        assertThat(BarmanArgs.retentionPolicies(Optional.empty(), Optional.of("90m"))).containsExactly("RECOVERY WINDOW OF 1 DAYS");
        assertThat(BarmanArgs.retentionPolicies(Optional.empty(), Optional.of(""))).isEmpty();
        assertThatThrownBy(() -> BarmanArgs.retentionPolicies(Optional.empty(), Optional.of("a month")))
                .hasMessageContaining("BACKUP_RETENTION_MAX_AGE is 'a month'").hasMessageContaining("30d");
        assertThatThrownBy(() -> BarmanArgs.retentionPolicies(Optional.of(0), Optional.empty())).hasMessageContaining("at least 1");
    }

    @Test
    void theStoreIsReadFromThePrefixedEnvironment() {
        Map<String, String> env = Map.of("BACKUP_DESTINATION_PATH", "s3://b/p/", "BACKUP_ENDPOINT_URL", "http://s3:8333",
                "BACKUP_ACCESS_KEY_ID", "k", "BACKUP_ACCESS_SECRET_KEY", "s");
        ObjectStore read = ObjectStore.fromEnvironment(env, ObjectStore.BACKUP, "pg").orElseThrow();
        assertThat(read).isEqualTo(new ObjectStore("s3://b/p/", Optional.of("http://s3:8333"), "pg", "k", "s"));
        assertThat(read.location()).isEqualTo("s3://b/p/pg");
        assertThat(ObjectStore.fromEnvironment(env, ObjectStore.RECOVERY, "pg")).isEmpty();
        assertThatThrownBy(() -> ObjectStore.fromEnvironment(Map.of("BACKUP_DESTINATION_PATH", "/mnt/backups"), ObjectStore.BACKUP, "pg"))
                .hasMessageContaining("BACKUP_DESTINATION_PATH is '/mnt/backups'").hasMessageContaining("s3://");
    }
}
