package dev.runbook.instance.backup;

import dev.runbook.instance.postgres.ConfigFiles;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Continuous WAL archiving: when the pod names a store ({@code BACKUP_DESTINATION_PATH}), the
 * server runs with {@code archive_mode = on} and an archive_command that sends every finished WAL
 * file there with barman-cloud-wal-archive. Written before every start (the run directory's path is
 * this instance's own, and a replica's copy of the data directory holds its primary's file); a
 * standby does not archive (archive_mode on, not always) until it is promoted.
 */
public final class WalArchiving {
    /** A WAL file is sent at the latest this long after it was begun, so a quiet primary's commits reach the store. */
    static final String ARCHIVE_TIMEOUT = "5min";

    private final Optional<ObjectStore> store;
    private final ToolScripts scripts;
    private final ConfigFiles files;

    public WalArchiving(Optional<ObjectStore> store, ToolScripts scripts, ConfigFiles files) {
        this.store = store;
        this.scripts = scripts;
        this.files = files;
    }

    public boolean enabled() {
        return store.isPresent();
    }

    /** Writes {@code runbook-archive.conf} into {@code data}: archiving on (and its script), or nothing. */
    public void configure(Path data) {
        files.ensureIncludes(data);
        ConfigFiles.write(data.resolve(ConfigFiles.ARCHIVE), store.map(s -> settings(s, scripts.writeArchive(s)))
                .orElse("# Written by the instance manager before every start: no BACKUP_DESTINATION_PATH, no WAL archiving.\n"));
    }

    static String settings(ObjectStore store, String archiveCommand) {
        return String.join("\n",
                "# Written by the instance manager before every start: WAL archiving to " + store.location() + ".",
                "archive_mode = on",
                "archive_command = '" + archiveCommand.replace("'", "''") + "'",
                "archive_timeout = '" + ARCHIVE_TIMEOUT + "'",
                "");
    }
}
