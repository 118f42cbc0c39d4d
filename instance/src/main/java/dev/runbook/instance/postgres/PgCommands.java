package dev.runbook.instance.postgres;

import dev.runbook.instance.address.Address;
import dev.runbook.instance.config.Settings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PostgreSQL's own tools, run as child processes: initdb, pg_ctl, pg_basebackup, pg_rewind and
 * pg_controldata. Passwords reach them through a passfile in the run directory, never on a command
 * line or in a log line.
 */
public final class PgCommands {
    private static final Logger LOG = LoggerFactory.getLogger(PgCommands.class);
    private static final Duration TOOL_TIMEOUT = Duration.ofMinutes(30);

    private final Settings settings;
    private final ConfigFiles files;
    private final ToolProcess tools;

    public PgCommands(Settings settings, ConfigFiles files) {
        this.settings = settings;
        this.files = files;
        this.tools = new ToolProcess(settings.runDir());
    }

    public void initdb() {
        Path pwfile = files.writePasswordFile();
        try {
            run("initdb", "-D", settings.dataDir().toString(), "-U", Settings.SUPERUSER, "--pwfile=" + pwfile,
                    "--auth=scram-sha-256", "--data-checksums", "--encoding=UTF8", "--no-instructions");
        } finally {
            files.deleteQuietly(pwfile);
        }
    }

    /** Starts the server and waits until it accepts connections (a standby: until it is consistent). */
    public void start() {
        run("pg_ctl", "start", "-D", settings.dataDir().toString(), "-w", "-t", "300", "-l", files.serverLog().toString(),
                "-o", "-p " + settings.port() + " -k " + settings.runDir() + " -h " + settings.listenAddresses());
    }

    /** Fast shutdown: client sessions are ended, a shutdown checkpoint written and streamed to the standbys. */
    public void stop() {
        run("pg_ctl", "stop", "-D", settings.dataDir().toString(), "-m", "fast", "-w", "-t", "120");
    }

    /** Makes the server read its configuration files again (pg_hba.conf, settings that need no restart). */
    public void reload() {
        run("pg_ctl", "reload", "-D", settings.dataDir().toString());
    }

    public void promote() {
        run("pg_ctl", "promote", "-D", settings.dataDir().toString(), "-w", "-t", "120");
    }

    /** A copy of the primary's data directory (the cluster's authority with it), as the replication role, over TLS. */
    public void basebackup(Address from) {
        run("pg_basebackup", "-d", files.conninfo(from, settings.podName()), "-D", settings.dataDir().toString(), "-X", "stream",
                "-c", "fast", "--no-password");
    }

    /** Rewinds a stopped data directory onto the source's timeline; crash recovery first if it was not shut down cleanly. */
    public void rewind(String sourceConninfo) {
        run("pg_rewind", "--target-pgdata=" + settings.dataDir(), "--source-server=" + sourceConninfo, "--progress");
    }

    /** pg_controldata's lines as name/value pairs ("Database system identifier", "Latest checkpoint location", ...). */
    public Map<String, String> controlData() {
        String out = run("pg_controldata", "-D", settings.dataDir().toString());
        Map<String, String> values = new java.util.LinkedHashMap<>();
        for (String line : out.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                values.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
            }
        }
        return values;
    }

    /** Runs SQL through psql on the local server's Unix socket (in the private run directory), the SQL read from a private file. */
    public String psqlLocal(String sql) {
        Path script = settings.runDir().resolve("psql-input.sql");
        files.writePrivateFile(script, sql);
        try {
            return tools.run(command("psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", settings.runDir().toString(),
                    "-p", Integer.toString(settings.port()), "-U", Settings.SUPERUSER, "-d", "postgres", "-f", "-"),
                    toolEnvironment(), List.of(Settings.PASSWORD), Optional.of(script), TOOL_TIMEOUT).strip();
        } finally {
            files.deleteQuietly(script);
        }
    }

    /** The environment every PostgreSQL tool gets: the passfile, a connect timeout, never the password itself. */
    public Map<String, String> toolEnvironment() {
        return Map.of("PGPASSFILE", files.passFile().toString(), "PGCONNECT_TIMEOUT", "5");
    }

    private List<String> command(String tool, String... args) {
        List<String> command = new ArrayList<>();
        command.add(settings.binDir().resolve(tool).toString());
        command.addAll(List.of(args));
        return command;
    }

    private String run(String tool, String... args) {
        String text = tools.run(command(tool, args), toolEnvironment(), List.of(Settings.PASSWORD), Optional.empty(), TOOL_TIMEOUT);
        if (!"pg_controldata".equals(tool)) {
            LOG.info("{} done: {}", tool, ToolProcess.tail(text, 3));
        }
        return text;
    }
}
