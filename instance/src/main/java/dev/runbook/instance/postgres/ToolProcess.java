package dev.runbook.instance.postgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One run of an external tool (PostgreSQL's or Barman Cloud's): its output captured in a private
 * temporary file of the run directory, a time limit, and a {@link CommandFailed} that carries the
 * tool's last lines when it exits non-zero. The environment is the manager's, minus
 * {@code removed}, plus {@code added}: secrets reach a tool only when it is given them.
 */
public final class ToolProcess {
    private final Path runDir;

    public ToolProcess(Path runDir) {
        this.runDir = runDir;
    }

    /** Runs {@code command} (its first element names it in messages) and returns its output. */
    public String run(List<String> command, Map<String, String> added, List<String> removed, Optional<Path> stdin, Duration timeout) {
        String tool = Path.of(command.get(0)).getFileName().toString();
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        removed.forEach(builder.environment()::remove);
        builder.environment().putAll(added);
        stdin.ifPresent(file -> builder.redirectInput(file.toFile()));
        try {
            Path output = Files.createTempFile(runDir, tool, ".out");
            try {
                Process process = builder.redirectOutput(output.toFile()).start();
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    throw new CommandFailed(tool + " did not finish within " + timeout.toMinutes() + " minutes");
                }
                String text = Files.readString(output, StandardCharsets.UTF_8);
                if (process.exitValue() != 0) {
                    throw new CommandFailed(tool + " exited with " + process.exitValue() + ": " + tail(text, 3));
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

    /** The last {@code lines} non-blank lines of a tool's output, joined by " | ". */
    public static String tail(String text, int lines) {
        List<String> all = text.strip().lines().filter(l -> !l.isBlank()).toList();
        return String.join(" | ", all.subList(Math.max(0, all.size() - lines), all.size()));
    }
}
