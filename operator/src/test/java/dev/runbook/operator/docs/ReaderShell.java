package dev.runbook.operator.docs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reader's shell: one bash process that every command of a journey is typed into, so that what one
 * command leaves (a variable, a background job, the working directory) is there for the next, as in a
 * terminal. Each command's output (its standard output and error, and later that of any job it put in
 * the background) goes to a file of its own, so that an operator started with {@code &} does not mix its
 * log into what the next command prints. Closing it stops the jobs still running, as closing a terminal
 * does.
 */
final class ReaderShell implements AutoCloseable {
    /** What one command printed, and its exit code. */
    record Result(int exit, String output, Path file) {}

    private static final Pattern DONE = Pattern.compile("__walked__ (\\d+) (\\d+)");
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(45);

    private final Process bash;
    private final Writer input;
    private final Path outputs;
    private final BlockingQueue<String> transcript = new LinkedBlockingQueue<>();
    private final List<String> stray = new ArrayList<>();
    private int typed;

    /**
     * @param workDir     where the shell starts (the reader's clone)
     * @param environment the shell's whole environment
     * @param outputs     a directory for the commands' output files
     */
    ReaderShell(Path workDir, Map<String, String> environment, Path outputs) throws IOException {
        this.outputs = Files.createDirectories(outputs);
        ProcessBuilder builder = new ProcessBuilder("bash", "--noprofile", "--norc").directory(workDir.toFile())
                .redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(environment);
        bash = builder.start();
        input = new java.io.OutputStreamWriter(bash.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(this::readTranscript, "reader-shell");
        reader.setDaemon(true);
        reader.start();
    }

    /** Types {@code command} and waits for it to end, at most {@code timeout}. */
    Result run(String command, Duration timeout) throws IOException, InterruptedException {
        int number = ++typed;
        Path file = outputs.resolve(String.format("%03d.out", number));
        // The braces keep the command in this shell (a variable it sets, a job it starts, stay), and send
        // everything it writes, now and from the background later, to its own file.
        type("{\n" + command + "\n} >'" + file + "' 2>&1 </dev/null\nprintf '\\n__walked__ %d %d\\n' " + number + " $?\n");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String line = transcript.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                if (!bash.isAlive()) throw new IllegalStateException("the shell ended: " + String.join("\n", stray));
                throw new IllegalStateException("still running after " + timeout.toSeconds() + " s: " + command);
            }
            Matcher done = DONE.matcher(line);
            if (done.matches() && Integer.parseInt(done.group(1)) == number) {
                return new Result(Integer.parseInt(done.group(2)), Files.readString(file, StandardCharsets.UTF_8), file);
            }
            if (!line.isEmpty()) stray.add(line);
        }
    }

    /** What the shell itself printed besides the commands' files (a syntax error, say). */
    List<String> stray() {
        return List.copyOf(stray);
    }

    /** Stops the jobs still running (SIGTERM, as a closed terminal's SIGHUP would), then the shell. */
    @Override
    public void close() throws IOException, InterruptedException {
        if (bash.isAlive()) {
            try {
                type("jobs -p | xargs -r kill 2>/dev/null; wait; exit\n");
            } catch (IOException e) {
                // the shell is gone already
            }
        }
        if (!bash.waitFor(CLOSE_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            bash.descendants().forEach(ProcessHandle::destroyForcibly);
            bash.destroyForcibly().waitFor();
        }
    }

    private void type(String text) throws IOException {
        input.write(text);
        input.flush();
    }

    private void readTranscript() {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(bash.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) transcript.add(line);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
