package dev.runbook.instance.backup;

import dev.runbook.postgres.contract.RestoreProgress;
import dev.runbook.postgres.contract.PostgresContract;
import dev.runbook.instance.config.Settings;
import dev.runbook.instance.local.LocalInspector;
import dev.runbook.instance.postgres.ConfigFiles;
import dev.runbook.instance.postgres.PgCommands;
import dev.runbook.instance.tls.ClusterCa;
import dev.runbook.instance.tls.InstanceTls;
import dev.runbook.instance.postgres.ToolProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bootstraps the first primary of a new cluster from a backup instead of initdb
 * (docs/instance-manager.md#restore): barman-cloud-restore into a staging directory next to the data
 * directory, the instance's own settings and the recovery settings written there, then one rename,
 * so the data directory is either empty or a complete restore. The server then replays the archived
 * WAL (restore_command: barman-cloud-wal-restore) to the end or to the target time and promotes
 * itself. The restored database keeps its original's password: once promoted, the manager sets this
 * cluster's over the private Unix socket, which alone is trusted while it recovers.
 */
public final class Restorer {
    static final String PENDING = "runbook-restore.pending";
    private static final Logger LOG = LoggerFactory.getLogger(Restorer.class);
    private static final Duration RETRY_AFTER = Duration.ofSeconds(30);
    private static final Duration PROMOTION_TIMEOUT = Duration.ofHours(2);

    private final Settings settings;
    private final Recovery recovery;
    private final BarmanCommands barman;
    private final ToolScripts scripts;
    private final WalArchiving archiving;
    private final ConfigFiles files;
    private final PgCommands commands;
    private final Consumer<Map<String, String>> annotate;
    private final InstanceTls tls;
    private final Clock clock;
    private Instant lastFailure;
    private RestoreFailed lastError;

    public Restorer(Settings settings, Recovery recovery, BarmanCommands barman, ToolScripts scripts, WalArchiving archiving,
                    ConfigFiles files, PgCommands commands, Consumer<Map<String, String>> annotate, Clock clock, InstanceTls tls) {
        this.settings = settings;
        this.recovery = recovery;
        this.barman = barman;
        this.scripts = scripts;
        this.archiving = archiving;
        this.files = files;
        this.commands = commands;
        this.annotate = annotate;
        this.clock = clock;
        this.tls = tls;
    }

    /** Restores into the empty data directory and starts; a failure is reported and tried again after a pause. */
    public void restore() {
        if (lastFailure != null && clock.instant().isBefore(lastFailure.plus(RETRY_AFTER))) {
            throw lastError;
        }
        report(RestoreProgress.RESTORING + recovery.backupName().orElse(recovery.targetTime().isPresent() ? "the newest backup before "
                + recovery.targetTime().get() : "the newest backup") + " from " + recovery.store().location(), null);
        try {
            // Barman prints times without a zone; the instances' servers run in UTC (docs/instance-manager.md#restore).
            BackupInfo chosen = recovery.choose(barman.list(recovery.store(), ZoneOffset.UTC));
            report(RestoreProgress.RESTORING + chosen.label() + " (" + chosen.id() + ") from " + recovery.store().location(), null);
            Path staging = settings.dataDir().resolveSibling(settings.dataDir().getFileName() + ".restore");
            deleteTree(staging);
            barman.restore(recovery.store(), chosen.id(), staging);
            prepare(staging, chosen);
            moveIntoPlace(staging);
            startAndFinish();
        } catch (RuntimeException e) {
            lastFailure = clock.instant();
            lastError = new RestoreFailed(e.getMessage());
            report(null, e.getMessage() == null ? e.toString() : oneLine(e.getMessage()));
            throw lastError;
        }
    }

    /** After a restart half-way (the server recovering, the password not yet set): finish what {@link #restore} began. */
    public boolean pending() {
        return Files.exists(settings.dataDir().resolve(PENDING));
    }

    public void finish() {
        String id = read(settings.dataDir().resolve(PENDING));
        awaitPromotion();
        commands.psqlLocal("alter role " + Settings.SUPERUSER + " password '" + settings.password().replace("'", "''") + "'");
        files.writeInitialSettings();    // pg_hba.conf without the recovery's trust line
        files.deleteQuietly(settings.dataDir().resolve(ConfigFiles.RECOVERY));
        tls.prepare(true);               // this cluster's authority (prepare made it), its certificate
        commands.reload();
        files.deleteQuietly(settings.dataDir().resolve(PENDING));
        LOG.info("restored {}: promoted, this cluster's password set", id);
        report(RestoreProgress.RESTORED + id, null);
    }

    private void startAndFinish() {
        try {
            commands.start();
        } catch (RuntimeException e) {
            throw new RestoreFailed("the restored server did not start: " + e.getMessage() + serverLogTail());
        }
        finish();
    }

    private void prepare(Path data, BackupInfo chosen) {
        setPrivate(data);
        files.writeInitialSettings(data);
        // The backup holds the original cluster's authority: a restored cluster trusts its own instances only.
        new ClusterCa(data).create(settings.qualifiedClusterName(), clock.instant());
        files.writeTlsOff(data);
        ConfigFiles.write(data.resolve("pg_hba.conf"), "# While it recovers from a backup: the private Unix socket, for the manager alone.\n"
                + "local   all          " + Settings.SUPERUSER + "          trust\n" + read(data.resolve("pg_hba.conf")));
        // The original's ALTER SYSTEM settings (synchronous_standby_names) are not this cluster's.
        ConfigFiles.write(data.resolve("postgresql.auto.conf"), "# Do not edit this file manually!\n# It will be overwritten by the ALTER SYSTEM command.\n");
        Stream.of("standby.signal", "runbook-standby.conf", "postmaster.pid", "postmaster.opts").forEach(f -> files.deleteQuietly(data.resolve(f)));
        ConfigFiles.write(data.resolve(ConfigFiles.RECOVERY), recoverySettings(scripts.writeRestore(recovery.store()), recovery));
        ConfigFiles.write(data.resolve("recovery.signal"), "");
        archiving.configure(data);
        ConfigFiles.write(data.resolve(PENDING), chosen.id() + "\n");
    }

    static String recoverySettings(String restoreCommand, Recovery recovery) {
        StringBuilder text = new StringBuilder("# Written by the instance manager: recovery from " + recovery.store().location()
                + "; removed once promoted.\n");
        text.append("restore_command = '").append(restoreCommand.replace("'", "''")).append("'\n");
        recovery.targetTimeSetting().ifPresent(t -> text.append("recovery_target_time = '").append(t).append("'\n"));
        text.append("recovery_target_action = 'promote'\n");
        return text.toString();
    }

    private void moveIntoPlace(Path staging) {
        Path data = settings.dataDir();
        try {
            if (Files.isDirectory(data)) {
                Files.delete(data);    // empty, or the decider would not have chosen a restore
            }
            Files.move(staging, data, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move the restored data from " + staging + " to " + data, e);
        }
    }

    private void awaitPromotion() {
        Instant deadline = clock.instant().plus(PROMOTION_TIMEOUT);
        while (true) {
            if (!LocalInspector.postmasterRunning(settings.dataDir())) {
                throw new RestoreFailed("the server stopped while it recovered" + serverLogTail());
            }
            try {
                if ("f".equals(commands.psqlLocal("select pg_is_in_recovery()"))) {
                    return;
                }
            } catch (RuntimeException e) {
                LOG.debug("not answering yet: {}", e.getMessage());
            }
            if (clock.instant().isAfter(deadline)) {
                throw new RestoreFailed("the restored server did not promote within " + PROMOTION_TIMEOUT.toMinutes() + " minutes" + serverLogTail());
            }
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RestoreFailed("interrupted while waiting for the restored server to promote");
            }
        }
    }

    private String serverLogTail() {
        try {
            String log = Files.readString(files.serverLog());
            String fatal = log.lines().filter(l -> l.contains("FATAL") || l.contains("PANIC")).reduce((a, b) -> b).orElse("");
            return fatal.isEmpty() ? "; server log: " + ToolProcess.tail(log, 2) : "; server log: " + fatal.strip();
        } catch (IOException e) {
            return "";
        }
    }

    private void report(String restore, String error) {
        Map<String, String> annotations = new HashMap<>();
        if (restore != null) {
            annotations.put(PostgresContract.RESTORE, restore);
        }
        annotations.put(PostgresContract.RESTORE_ERROR, error);
        try {
            annotate.accept(annotations);
        } catch (RuntimeException e) {
            LOG.warn("could not annotate the pod with the restore's progress: {}", e.getMessage());
        }
    }

    private static String oneLine(String message) {
        String line = message.replace('\n', ' ');
        return line.length() > 1024 ? line.substring(0, 1024) : line;
    }

    private static void setPrivate(Path dir) {
        try {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make " + dir + " private", e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clear " + dir, e);
        }
    }
}
