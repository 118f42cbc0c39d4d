package dev.runbook.instance.backup;

import dev.runbook.instance.postgres.ToolProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs Barman Cloud's tools (found on PATH, as Debian's barman-cli-cloud installs them) against one
 * {@link ObjectStore}: its keys in the tool's environment as AWS_*, nothing of the manager's own
 * secrets. A failure is a {@link dev.runbook.instance.postgres.CommandFailed} with the tool's last lines.
 */
public final class BarmanCommands {
    private static final Logger LOG = LoggerFactory.getLogger(BarmanCommands.class);
    private static final Duration LIST_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration COPY_TIMEOUT = Duration.ofHours(6);
    /** The manager's own secrets, never passed on to a tool. */
    private static final List<String> WITHHELD = List.of("POSTGRES_PASSWORD", "BACKUP_ACCESS_KEY_ID", "BACKUP_ACCESS_SECRET_KEY",
            "RECOVERY_ACCESS_KEY_ID", "RECOVERY_ACCESS_SECRET_KEY");

    private final ToolProcess tools;
    private final Map<String, String> extraEnvironment;

    /** {@code extraEnvironment}: what else the tools need (PGPASSFILE for a backup of the local server). */
    public BarmanCommands(Path scratchDir, Map<String, String> extraEnvironment) {
        this.tools = new ToolProcess(scratchDir);
        this.extraEnvironment = Map.copyOf(extraEnvironment);
    }

    public List<BackupInfo> list(ObjectStore store, ZoneId zone) {
        return BarmanJson.list(run(store, BarmanArgs.list(store), LIST_TIMEOUT), zone);
    }

    public BackupInfo show(ObjectStore store, String idOrName, ZoneId zone) {
        return BarmanJson.show(run(store, BarmanArgs.show(store, idOrName), LIST_TIMEOUT), zone);
    }

    public void backup(ObjectStore store, String name, String socketDir, int port, String user) {
        String out = run(store, BarmanArgs.backup(store, name, socketDir, port, user), COPY_TIMEOUT);
        LOG.info("barman-cloud-backup {} to {} done: {}", name, store.location(), ToolProcess.tail(out, 2));
    }

    public void delete(ObjectStore store, String retentionPolicy) {
        String out = run(store, BarmanArgs.delete(store, retentionPolicy), COPY_TIMEOUT);
        LOG.info("barman-cloud-backup-delete '{}' on {} done: {}", retentionPolicy, store.location(), ToolProcess.tail(out, 2));
    }

    public void restore(ObjectStore store, String backupId, Path directory) {
        String out = run(store, BarmanArgs.restore(store, backupId, directory.toString()), COPY_TIMEOUT);
        LOG.info("barman-cloud-restore {} from {} into {} done: {}", backupId, store.location(), directory, ToolProcess.tail(out, 2));
    }

    private String run(ObjectStore store, List<String> command, Duration timeout) {
        Map<String, String> env = new HashMap<>(extraEnvironment);
        env.putAll(store.toolEnvironment());
        return tools.run(command, env, WITHHELD, Optional.empty(), timeout);
    }
}
