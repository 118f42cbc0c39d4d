package dev.runbook.instance.backup;

import dev.runbook.postgres.contract.PostgresContract;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code instance-manager backup}, the backup Job's command (docs/instance-manager.md#the-backup-job):
 * asks the source instance for a base backup, applies retention (barman-cloud-backup-delete: the
 * base backups the policies no longer keep and the WAL only they needed), and annotates its own Job
 * with what the backup is, or with why it failed. Exit 0 when the backup was taken, 1 when not.
 */
public final class BackupJob {
    private static final Logger LOG = LoggerFactory.getLogger(BackupJob.class);
    private static final int MAX_MESSAGE = 1024;

    /** Where the backup is taken: the source instance's manager (HTTP in production, anything in tests). */
    public interface Source {
        BackupInfo backup(String pod, String name);
    }

    /** What deletes old backups; one call per retention policy. */
    public interface Retention {
        void apply(ObjectStore store, String policy);
    }

    private final BackupJobSettings settings;
    private final Source source;
    private final Retention retention;
    private final Consumer<Map<String, String>> annotateJob;
    private final Clock clock;

    public BackupJob(BackupJobSettings settings, Source source, Retention retention, Consumer<Map<String, String>> annotateJob, Clock clock) {
        this.settings = settings;
        this.source = source;
        this.retention = retention;
        this.annotateJob = annotateJob;
        this.clock = clock;
    }

    public int run() {
        LOG.info("backup {} of {} at {} into {}", settings.jobName(), settings.clusterName(), settings.sourcePod(), settings.store());
        BackupInfo info;
        try {
            info = source.backup(settings.sourcePod(), settings.jobName());
        } catch (RuntimeException e) {
            String message = message(e);
            LOG.error("backup {} failed at {}: {}", settings.jobName(), clock.instant(), message);
            annotateJob.accept(Map.of(PostgresContract.BACKUP_ERROR, message));
            return 1;
        }
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(PostgresContract.BACKUP_ID, info.id());
        annotations.put(PostgresContract.BACKUP_SIZE, Long.toString(info.size()));
        annotations.put(PostgresContract.BACKUP_BEGIN_WAL, info.beginWal());
        annotations.put(PostgresContract.BACKUP_END_WAL, info.endWal());
        annotations.put(PostgresContract.BACKUP_END_TIME, info.endTime() == null ? "" : info.endTime().toString());
        annotations.put(PostgresContract.BACKUP_ERROR, null);
        annotations.put(PostgresContract.RETENTION_ERROR, null);
        for (String policy : settings.retentionPolicies()) {
            try {
                retention.apply(settings.store(), policy);
            } catch (RuntimeException e) {
                LOG.warn("retention '{}' failed after backup {}: {}", policy, info.id(), message(e));
                annotations.put(PostgresContract.RETENTION_ERROR, "'" + policy + "': " + message(e));
            }
        }
        annotateJob.accept(annotations);
        LOG.info("backup {} done: id {}, {} bytes, WAL {} to {}, ended {}", settings.jobName(), info.id(), info.size(), info.beginWal(),
                info.endWal(), info.endTime());
        return 0;
    }

    /** The tool's last meaningful line (its last ERROR line, else its last line), at most 1 KB. */
    static String message(RuntimeException e) {
        String text = e.getMessage() == null ? e.toString() : meaningful(e.getMessage());
        return text.length() > MAX_MESSAGE ? text.substring(0, MAX_MESSAGE) : text;
    }

    /** Tool output arrives as lines joined by " | " (see ToolProcess); the last one naming an ERROR says most. */
    static String meaningful(String message) {
        List<String> parts = List.of(message.strip().split("\\s\\|\\s|\\n"));
        return parts.stream().filter(p -> p.contains("ERROR")).reduce((a, b) -> b).orElse(parts.get(parts.size() - 1)).strip();
    }
}
