package dev.runbook.instance.local;

import dev.runbook.instance.config.Settings;
import dev.runbook.instance.postgres.ConfigFiles;
import dev.runbook.instance.postgres.PgCommands;
import dev.runbook.instance.postgres.Sql;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Looks at the data directory and the server: the local half of each pass's observation. */
public final class LocalInspector {
    static final String STREAMED_FROM = "streamed-from";
    private final Settings settings;
    private final Sql sql;
    private final PgCommands commands;
    private final ConfigFiles files;

    public LocalInspector(Settings settings, Sql sql, PgCommands commands, ConfigFiles files) {
        this.settings = settings;
        this.sql = sql;
        this.commands = commands;
        this.files = files;
    }

    public LocalState inspect() {
        DataState data = dataState(settings.dataDir());
        if (data != DataState.VALID) {
            return new LocalState(data, false, false, false, "", "", "");
        }
        String upstream = files.upstream();
        boolean standbySignal = Files.exists(settings.dataDir().resolve("standby.signal"));
        if (!postmasterRunning(settings.dataDir())) {
            String checkpoint = commands.controlData().getOrDefault("Latest checkpoint location", "");
            return new LocalState(data, false, false, false, upstream, checkpoint, "", standbySignal, null, "", Map.of(), lastStreamedFrom());
        }
        try {
            Sql.ServerState server = sql.local();
            if (server.receiver() != null && "streaming".equals(server.receiver().status())) {
                recordStreamedFrom(server.receiver().sender().toString());
            }
            return new LocalState(data, true, true, server.inRecovery(), upstream, server.lsn(), server.standbyNames(), standbySignal,
                    server.receiver(), server.replicationMark(), server.inRecovery() ? Map.of() : sql.slots(), lastStreamedFrom());
        } catch (SQLException e) {
            return new LocalState(data, true, false, false, upstream, "", "", standbySignal, null, "", Map.of(), lastStreamedFrom());
        }
    }

    /**
     * Whom this standby's WAL receiver last streamed from, kept in the run directory: when its primary
     * stops, the receiver stops too, and this is what says the standby had followed that very primary
     * (its timeline included) until then.
     */
    private void recordStreamedFrom(String sender) {
        if (!sender.equals(lastStreamedFrom())) {
            ConfigFiles.write(settings.runDir().resolve(STREAMED_FROM), sender + "\n");
        }
    }

    private String lastStreamedFrom() {
        try {
            Path file = settings.runDir().resolve(STREAMED_FROM);
            return Files.exists(file) ? Files.readString(file).strip() : "";
        } catch (IOException e) {
            return "";
        }
    }

    public static DataState dataState(Path dir) {
        if (!Files.isDirectory(dir)) {
            return Files.exists(dir) ? DataState.FOREIGN : DataState.EMPTY;
        }
        if (Files.isRegularFile(dir.resolve("PG_VERSION"))) {
            return DataState.VALID;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isPresent() ? DataState.FOREIGN : DataState.EMPTY;
        } catch (IOException e) {
            return DataState.FOREIGN;
        }
    }

    /** postmaster.pid names a live process (a stale file after a crash or kill -9 does not). */
    public static boolean postmasterRunning(Path dataDir) {
        Path pidFile = dataDir.resolve("postmaster.pid");
        try {
            if (!Files.exists(pidFile)) {
                return false;
            }
            List<String> lines = Files.readAllLines(pidFile);
            if (lines.isEmpty() || lines.get(0).isBlank()) {
                return false;
            }
            long pid = Long.parseLong(lines.get(0).trim());
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        } catch (IOException | NumberFormatException e) {
            return false;
        }
    }
}
