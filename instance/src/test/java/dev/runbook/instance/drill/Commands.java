package dev.runbook.instance.drill;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A command the drills run to its end (kubectl, the object store's tools, PostgreSQL's and the shell's):
 * its output with errors merged in, or a failure carrying all it printed when it exits non-zero or
 * outlives two minutes.
 */
public final class Commands {
    private static final long LIMIT_SECONDS = 120;

    private Commands() {}

    /**
     * Runs {@code builder}'s command with {@code stdin} (or none) as its input.
     *
     * @param what names the command in the failure, e.g. {@code kubectl apply -f -}
     */
    public static String run(ProcessBuilder builder, String stdin, String what) {
        try {
            Process p = builder.redirectErrorStream(true).start();
            if (stdin != null) {
                p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            }
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(what + " failed: " + out);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
