package dev.runbook.instance.backup;

import dev.runbook.postgres.contract.PostgresContract;
import dev.runbook.instance.postgres.Sql;
import dev.runbook.instance.postgres.ToolProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * What the instance reports about WAL archiving, from pg_stat_archiver: the last archived WAL file,
 * and while archiving fails (the last failure is newer than the last success) the failed file and
 * the tool's message, which the archive script left in the run directory.
 */
public final class ArchiveReport {
    private static final int MAX_MESSAGE = 1024;

    private final Sql sql;
    private final Path errorFile;

    public ArchiveReport(Sql sql, Path runDir) {
        this.sql = sql;
        this.errorFile = runDir.resolve(ToolScripts.ARCHIVE_ERROR);
    }

    /** The two annotations (a null value removes one); empty when the server does not answer. */
    public Map<String, String> annotations() {
        try {
            return annotations(sql.archiver(), lastError());
        } catch (SQLException e) {
            return Map.of();
        }
    }

    static Map<String, String> annotations(Sql.Archiver archiver, String toolMessage) {
        Map<String, String> out = new HashMap<>();
        out.put(PostgresContract.LAST_ARCHIVED_WAL, archiver.lastArchivedWal().isEmpty() ? null : archiver.lastArchivedWal());
        boolean failing = archiver.lastFailedTime() != null
                && (archiver.lastArchivedTime() == null || archiver.lastFailedTime().isAfter(archiver.lastArchivedTime()));
        String message = "WAL " + archiver.lastFailedWal() + ": " + (toolMessage.isEmpty() ? "barman-cloud-wal-archive failed" : toolMessage);
        out.put(PostgresContract.ARCHIVE_ERROR, failing ? message.substring(0, Math.min(message.length(), MAX_MESSAGE)) : null);
        return out;
    }

    private String lastError() {
        try {
            return Files.exists(errorFile) ? ToolProcess.tail(Files.readString(errorFile), 1) : "";
        } catch (IOException e) {
            return "";
        }
    }
}
