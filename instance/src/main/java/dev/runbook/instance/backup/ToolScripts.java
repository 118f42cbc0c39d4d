package dev.runbook.instance.backup;

import dev.runbook.instance.postgres.ConfigFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * PostgreSQL runs {@code archive_command} and {@code restore_command} itself, so the keys cannot come
 * from the manager's process: they are written to a private environment file in the run directory
 * (mode 0600, like the passfile), and a small script there reads it and runs the Barman Cloud tool.
 * The server's own environment never holds them. A failed archive leaves the tool's message in
 * {@link #ARCHIVE_ERROR} for the archive report.
 */
public final class ToolScripts {
    public static final String ARCHIVE_SCRIPT = "wal-archive";
    public static final String RESTORE_SCRIPT = "wal-restore";
    public static final String ARCHIVE_ERROR = "wal-archive.error";

    private final Path runDir;
    private final ConfigFiles files;

    public ToolScripts(Path runDir, ConfigFiles files) {
        this.runDir = runDir;
        this.files = files;
    }

    /** Writes the archive script and its keys; returns the archive_command that runs it. */
    public String writeArchive(ObjectStore store) {
        Path env = runDir.resolve("backup-store.env");
        files.writePrivateFile(env, environmentFile(store.toolEnvironment()));
        writeScript(runDir.resolve(ARCHIVE_SCRIPT), archiveScript(BarmanArgs.walArchive(store), env, runDir.resolve(ARCHIVE_ERROR)));
        return quote(runDir.resolve(ARCHIVE_SCRIPT).toString()) + " \"%p\"";
    }

    /** Writes the restore script and its keys; returns the restore_command that runs it. */
    public String writeRestore(ObjectStore store) {
        Path env = runDir.resolve("recovery-store.env");
        files.writePrivateFile(env, environmentFile(store.toolEnvironment()));
        writeScript(runDir.resolve(RESTORE_SCRIPT), restoreScript(BarmanArgs.walRestore(store), env));
        return quote(runDir.resolve(RESTORE_SCRIPT).toString()) + " \"%f\" \"%p\"";
    }

    static String environmentFile(Map<String, String> env) {
        return env.entrySet().stream().map(e -> e.getKey() + "=" + quote(e.getValue()) + "\n").collect(Collectors.joining());
    }

    static String archiveScript(List<String> tool, Path env, Path errorFile) {
        return String.join("\n",
                "#!/bin/sh",
                "# Written by the instance manager: PostgreSQL's archive_command (docs/instance-manager.md#wal-archiving).",
                "set -a; . " + quote(env.toString()) + "; set +a",
                "out=$(" + command(tool) + " \"$1\" 2>&1)",
                "rc=$?",
                "if [ $rc -ne 0 ]; then printf '%s\\n' \"$out\" > " + quote(errorFile.toString()) + "; fi",
                "if [ -n \"$out\" ]; then printf '%s\\n' \"$out\" >&2; fi",
                "exit $rc",
                "");
    }

    static String restoreScript(List<String> tool, Path env) {
        return String.join("\n",
                "#!/bin/sh",
                "# Written by the instance manager: PostgreSQL's restore_command while it recovers from a backup.",
                "set -a; . " + quote(env.toString()) + "; set +a",
                "exec " + command(tool) + " \"$1\" \"$2\"",
                "");
    }

    private static String command(List<String> args) {
        return args.stream().map(ToolScripts::quote).collect(Collectors.joining(" "));
    }

    /** A POSIX shell single-quoted word. */
    public static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    private static void writeScript(Path file, String text) {
        try {
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
