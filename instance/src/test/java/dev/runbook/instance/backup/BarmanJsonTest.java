package dev.runbook.instance.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class BarmanJsonTest {
    /** As barman-cloud-backup-show --format json prints it (barman 3.4: BackupInfo.to_json, times by ctime()). */
    static final String SHOW = "{\"pg\": {\"backup_label\": null, \"begin_offset\": 40, \"begin_time\": \"Tue Dec  1 10:04:58 2026\","
            + " \"begin_wal\": \"000000010000000000000004\", \"begin_xlog\": \"0/4000028\", \"end_offset\": 312,"
            + " \"end_time\": \"Tue Dec  1 10:05:03 2026\", \"end_wal\": \"000000010000000000000005\", \"end_xlog\": \"0/5000138\","
            + " \"size\": 35651584, \"status\": \"DONE\", \"backup_name\": \"pg-backup-1\", \"timeline\": 1,"
            + " \"backup_id\": \"20261201T100458\", \"server_name\": \"pg\", \"systemid\": \"7441234567890123456\"}}";

    @Test
    void showIsOneBackupWithItsSizeWalRangeAndEndTime() {
        BackupInfo info = BarmanJson.show(SHOW, ZoneOffset.UTC);
        assertThat(info).isEqualTo(new BackupInfo("20261201T100458", "pg-backup-1", "DONE", 35651584, "000000010000000000000004",
                "000000010000000000000005", Instant.parse("2026-12-01T10:05:03Z")));
        assertThat(info.done()).isTrue();
        assertThat(info.label()).isEqualTo("pg-backup-1");
    }

    @Test
    void timesAreReadInTheServersZone() {
        assertThat(BarmanJson.show(SHOW, ZoneId.of("Europe/Paris")).endTime()).isEqualTo(Instant.parse("2026-12-01T09:05:03Z"));
        assertThat(BarmanJson.time("Sat Dec 12 23:59:59 2026", ZoneOffset.UTC)).isEqualTo(Instant.parse("2026-12-12T23:59:59Z"));
    }

    @Test
    void listIsEveryBackupOldestFirstWhateverItsStatus() {
        String list = "{\"backups_list\": [{\"backup_id\": \"20261201T100458\", \"status\": \"DONE\", \"size\": 10, \"end_time\": \"Tue Dec  1 10:05:03 2026\"},"
                + " {\"backup_id\": \"20261201T110000\", \"status\": \"FAILED\", \"backup_name\": null, \"end_time\": null}]}";
        List<BackupInfo> backups = BarmanJson.list(list, ZoneOffset.UTC);
        assertThat(backups).extracting(BackupInfo::id).containsExactly("20261201T100458", "20261201T110000");
        assertThat(backups.get(1).done()).isFalse();
        assertThat(backups.get(1).name()).isEmpty();
        assertThat(backups.get(1).endTime()).isNull();
    }

    @Test
    void aWarningLineBeforeTheDocumentIsSkippedAndNoJsonIsAClearError() {
        assertThat(BarmanJson.show("WARNING: something\n" + SHOW, ZoneOffset.UTC).id()).isEqualTo("20261201T100458");
        assertThatThrownBy(() -> BarmanJson.show("ERROR: Bucket backups does not exist", ZoneOffset.UTC))
                .hasMessageContaining("Bucket backups does not exist");
    }
}
