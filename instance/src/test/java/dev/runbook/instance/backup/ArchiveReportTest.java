package dev.runbook.instance.backup;

import dev.runbook.postgres.contract.PostgresContract;
import static org.assertj.core.api.Assertions.assertThat;

import dev.runbook.instance.postgres.Sql;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ArchiveReportTest {
    private static final Instant T1 = Instant.parse("2026-12-01T10:00:00Z");
    private static final Instant T2 = Instant.parse("2026-12-01T10:01:00Z");

    @Test
    void archivingWorksTheLastFileAndNoError() {
        var out = ArchiveReport.annotations(new Sql.Archiver("000000010000000000000007", T2, "000000010000000000000005", T1), "old failure");
        assertThat(out).containsEntry(PostgresContract.LAST_ARCHIVED_WAL, "000000010000000000000007").containsEntry(PostgresContract.ARCHIVE_ERROR, null);
    }

    @Test
    void theLastFailureIsNewerTheFileAndTheToolsMessage() {
        var out = ArchiveReport.annotations(new Sql.Archiver("000000010000000000000007", T1, "000000010000000000000008", T2),
                "ERROR: Barman cloud WAL archiver exception: Could not connect to the endpoint URL");
        assertThat(out).containsEntry(PostgresContract.ARCHIVE_ERROR,
                "WAL 000000010000000000000008: ERROR: Barman cloud WAL archiver exception: Could not connect to the endpoint URL");
    }

    @Test
    void nothingArchivedYetAndNeverSucceeded() {
        var none = ArchiveReport.annotations(new Sql.Archiver("", null, "", null), "");
        assertThat(none).containsEntry(PostgresContract.LAST_ARCHIVED_WAL, null).containsEntry(PostgresContract.ARCHIVE_ERROR, null);
        var failing = ArchiveReport.annotations(new Sql.Archiver("", null, "000000010000000000000001", T1), "");
        assertThat(failing.get(PostgresContract.ARCHIVE_ERROR)).isEqualTo("WAL 000000010000000000000001: barman-cloud-wal-archive failed");
    }
}
