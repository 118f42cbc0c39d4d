package dev.runbook.operator.isolation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Notices a worker that burns CPU while it has nothing to do: a thread a bundle's code started and left
 * spinning, outside every cycle's budget. Sampled by the worker's watchdog; once the worker has been
 * idle for {@link #WINDOW} and demanded more than {@link #SHARE} of a processor over it, the worker is
 * to be killed. Demand is the CPU time its threads ran plus the time they waited for a processor
 * (the kernel's schedstat): on a busy machine a spinning thread gets a small share of a processor but
 * is runnable all the time, so CPU time alone would miss it exactly when CPU is scarce. Garbage
 * collection and the JIT compiler after a burst of cycles stay far below that.
 * (A worker that is never idle is bounded by its CPU-time limit instead, docs/security.md.)
 */
final class IdleCpuWatch {
    static final Duration WINDOW = Duration.ofSeconds(20);
    static final double SHARE = 0.5;

    private record Sample(long wallNanos, long demandNanos) {}

    private final Deque<Sample> idle = new ArrayDeque<>();

    /** The worker had a request in flight: what it used so far was asked for. */
    void busy() {
        idle.clear();
    }

    /**
     * A sample of a worker that had no request in flight since the last one (the first after {@link #busy}
     * is where the quiet period starts).
     *
     * @return why the worker should be killed, or null
     */
    String idle(long wallNanos, long demandNanos) {
        idle.add(new Sample(wallNanos, demandNanos));
        // Keep the shortest run of samples that still spans the window.
        while (idle.size() > 2 && wallNanos - secondOldest().wallNanos() >= WINDOW.toNanos()) idle.removeFirst();
        Sample first = idle.peekFirst();
        Sample last = idle.peekLast();
        long wall = last.wallNanos() - first.wallNanos();
        long demand = last.demandNanos() - first.demandNanos();
        if (wall < WINDOW.toNanos() || demand <= SHARE * wall) return null;
        return String.format(java.util.Locale.ROOT, "it ran or waited to run for %.1f s of %.0f s without a request to work on "
                + "(a thread of the bundle's, left running?)", demand / 1e9, wall / 1e9);
    }

    private Sample secondOldest() {
        var samples = idle.iterator();
        samples.next();
        return samples.next();
    }

    /**
     * What a process and its descendants demanded of the processors so far: their CPU time (threads that
     * ended included) plus the time their live threads waited in a run queue ({@code
     * /proc/PID/task/TID/schedstat}, second field; nothing where it cannot be read).
     */
    static long demandNanos(ProcessHandle root) {
        long total = cpuNanos(root) + waitedNanos(root.pid());
        for (ProcessHandle child : (Iterable<ProcessHandle>) root.descendants()::iterator) total += waitedNanos(child.pid());
        return total;
    }

    private static long waitedNanos(long pid) {
        long waited = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                try {
                    String[] fields = Files.readString(task.resolve("schedstat")).trim().split(" ");
                    if (fields.length >= 2) waited += Long.parseLong(fields[1]);
                } catch (IOException | NumberFormatException ended) {
                    // The thread ended between the listing and the read, or the kernel keeps no schedstat.
                }
            }
        } catch (IOException | UncheckedIOException gone) {
            // The process ended, or this is not Linux: its CPU time alone counts.
        }
        return waited;
    }

    /** The CPU time a process and all its descendants used so far; 0 when it cannot be read. */
    static long cpuNanos(ProcessHandle root) {
        long total = cpuOf(root);
        for (ProcessHandle child : (Iterable<ProcessHandle>) root.descendants()::iterator) total += cpuOf(child);
        return total;
    }

    private static long cpuOf(ProcessHandle process) {
        return process.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }
}
