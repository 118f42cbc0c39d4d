package dev.runbook.operator.isolation;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Drains a worker's standard error on a thread of its own and keeps its last {@value #KEPT} bytes, for
 * the message that says why a worker died. Nothing a worker writes there reaches the operator's log:
 * a bundle that prints cannot flood it.
 */
final class StderrTail {
    static final int KEPT = 2048;

    private final byte[] ring = new byte[KEPT];
    private long written;

    StderrTail(InputStream stderr, String name) {
        Thread drain = new Thread(() -> drain(stderr), "runbook-worker-stderr-" + name);
        drain.setDaemon(true);
        drain.start();
    }

    private void drain(InputStream stderr) {
        byte[] buffer = new byte[4096];
        try (stderr) {
            int read;
            while ((read = stderr.read(buffer)) >= 0) {
                synchronized (this) {
                    for (int i = 0; i < read; i++) ring[(int) (written++ % KEPT)] = buffer[i];
                }
            }
        } catch (IOException e) {
            // The worker is gone.
        }
    }

    /** The last bytes written, as text; empty when there were none. */
    synchronized String text() {
        int length = (int) Math.min(written, KEPT);
        byte[] last = new byte[length];
        for (int i = 0; i < length; i++) last[i] = ring[(int) ((written - length + i) % KEPT)];
        return new String(last, StandardCharsets.UTF_8).strip();
    }
}
