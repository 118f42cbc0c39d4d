package dev.runbook.operator.isolation;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Notices a worker that burns CPU while it has nothing to do: a thread a bundle's code started and left
 * spinning, outside every cycle's budget. Sampled by the worker's watchdog; once the worker has been
 * idle for {@link #WINDOW} and used more than {@link #SHARE} of a processor over it, the worker is to
 * be killed. Garbage collection and the JIT compiler after a burst of cycles stay far below that.
 * (A worker that is never idle is bounded by its CPU-time limit instead, docs/security.md.)
 */
final class IdleCpuWatch {
    static final Duration WINDOW = Duration.ofSeconds(20);
    static final double SHARE = 0.5;

    private record Sample(long wallNanos, long cpuNanos) {}

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
    String idle(long wallNanos, long cpuNanos) {
        idle.add(new Sample(wallNanos, cpuNanos));
        // Keep the shortest run of samples that still spans the window.
        while (idle.size() > 2 && wallNanos - secondOldest().wallNanos() >= WINDOW.toNanos()) idle.removeFirst();
        Sample first = idle.peekFirst();
        Sample last = idle.peekLast();
        long wall = last.wallNanos() - first.wallNanos();
        long cpu = last.cpuNanos() - first.cpuNanos();
        if (wall < WINDOW.toNanos() || cpu <= SHARE * wall) return null;
        return String.format(java.util.Locale.ROOT, "it used %.1f s of CPU in %.0f s without a request to work on "
                + "(a thread of the bundle's, left running?)", cpu / 1e9, wall / 1e9);
    }

    private Sample secondOldest() {
        var samples = idle.iterator();
        samples.next();
        return samples.next();
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
