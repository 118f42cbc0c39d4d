package dev.runbook.instance.postgres;

import dev.runbook.instance.address.Address;
import dev.runbook.instance.config.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PostgreSQL's own tools, run as child processes: initdb, pg_ctl, pg_basebackup, pg_rewind and
 * pg_controldata. Passwords reach them through a passfile in the run directory, never on a command
 * line or in a log line.
 */
public final class PgCommands {
    private static final Logger LOG = LoggerFactory.getLogger(PgCommands.class);
    private static final long TOOL_TIMEOUT_MINUTES = 30;

    private final Settings settings;
    private final ConfigFiles files;

    public PgCommands(Settings settings, ConfigFiles files) {
        this.settings = settings;
        this.files = files;
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

    public void promote() {
        run("pg_ctl", "promote", "-D", settings.dataDir().toString(), "-w", "-t", "120");
    }

    public void basebackup(Address from) {
        run("pg_basebackup", "-h", from.host(), "-p", Integer.toString(from.port()), "-U", Settings.SUPERUSER,
                "-D", settings.dataDir().toString(), "-X", "stream", "-c", "fast", "--no-password");
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

    private String run(String tool, String... args) {
        List<String> command = new ArrayList<>();
        command.add(settings.binDir().resolve(tool).toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("PGPASSFILE", files.passFile().toString());
        builder.environment().put("PGCONNECT_TIMEOUT", "5");
        builder.environment().remove(Settings.PASSWORD);
        try {
            Path output = Files.createTempFile(settings.runDir(), tool, ".out");
            try {
                Process process = builder.redirectOutput(output.toFile()).start();
                if (!process.waitFor(TOOL_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                    process.destroyForcibly();
                    throw new CommandFailed(tool + " did not finish within " + TOOL_TIMEOUT_MINUTES + " minutes");
                }
                String text = Files.readString(output, StandardCharsets.UTF_8);
                if (process.exitValue() != 0) {
                    throw new CommandFailed(tool + " exited with " + process.exitValue() + ": " + tail(text));
                }
                if (!"pg_controldata".equals(tool)) {
                    LOG.info("{} done: {}", tool, tail(text));
                }
                return text;
            } finally {
                Files.deleteIfExists(output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandFailed(tool + " was interrupted");
        }
    }

    private static String tail(String text) {
        String[] lines = text.strip().split("\n");
        int from = Math.max(0, lines.length - 3);
        return String.join(" | ", List.of(lines).subList(from, lines.length));
    }
}
