package dev.runbook.operator.isolation;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The operator's side of one worker: sends requests, matches answers by id, and bounds the worker from
 * outside. Every request has a wall-clock bound; a watchdog thread kills the worker when one is
 * overdue, when it burns CPU while idle ({@link IdleCpuWatch}), and the reader notices when it dies or
 * breaks the protocol. Then every request in flight fails with a {@link WorkerFailedException}, and so
 * does every later one: a dead worker is replaced, never revived.
 */
final class WorkerClient implements AutoCloseable {
    /** How often the watchdog looks at the requests in flight and the worker's CPU time. */
    static final Duration WATCH_PERIOD = Duration.ofMillis(250);

    private record Pending(CompletableFuture<Frames.Frame> answer, long deadlineNanos, String what, Duration bound) {}

    private final WorkerConnection connection;
    private final String name;
    private final DataOutputStream requests;
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private final IdleCpuWatch idleCpu = new IdleCpuWatch();
    private final Thread watchdog;
    private volatile String death;
    /** When a request last started or ended: the watchdog counts idle CPU only over a quiet period. */
    private volatile long lastActivityNanos = System.nanoTime();

    /**
     * Starts talking to a worker and waits for it to say it is ready.
     *
     * @throws WorkerFailedException when it is not ready within {@code startBound}
     */
    WorkerClient(WorkerConnection connection, String name, Duration startBound) {
        this.connection = connection;
        this.name = name;
        this.requests = new DataOutputStream(new BufferedOutputStream(connection.output(), 1 << 16));
        Thread reader = new Thread(this::read, "runbook-worker-read-" + name);
        reader.setDaemon(true);
        reader.start();
        watchdog = new Thread(this::watch, "runbook-worker-watch-" + name);
        watchdog.setDaemon(true);
        watchdog.start();
        try {
            ready.get(startBound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            kill("it did not start within " + startBound.toSeconds() + " s");
            throw new WorkerFailedException(describeDeath());
        } catch (ExecutionException e) {
            kill(death == null ? "it did not start" : death);
            throw new WorkerFailedException(describeDeath());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill("the operator stopped waiting for it");
            throw new WorkerFailedException(describeDeath());
        }
    }

    /**
     * Sends a request and waits for its answer, at most {@code bound} (wall-clock time): past it the
     * worker is killed.
     *
     * @param what the request, for the message when it fails ("the cycle of ...")
     * @throws WorkerFailedException when the worker died, was killed or broke the protocol
     */
    Frames.Frame call(byte kind, byte[] payload, Duration bound, String what) {
        if (death != null) throw new WorkerFailedException(describeDeath());
        long id = ids.incrementAndGet();
        Pending request = new Pending(new CompletableFuture<>(), System.nanoTime() + bound.toNanos(), what, bound);
        pending.put(id, request);
        lastActivityNanos = System.nanoTime();
        try {
            synchronized (requests) {
                Frames.write(requests, new Frames.Frame(id, kind, payload));
            }
            // The watchdog ends the wait at the bound; this is only in case it could not.
            return request.answer().get(bound.toMillis() + 2 * WATCH_PERIOD.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (IOException e) {
            kill("the request could not be sent: " + e.getMessage());
            throw new WorkerFailedException(describeDeath());
        } catch (TimeoutException e) {
            kill(what + " got no answer within " + bound.toSeconds() + " s");
            throw new WorkerFailedException(describeDeath());
        } catch (ExecutionException e) {
            throw e.getCause() instanceof WorkerFailedException failed ? failed : new WorkerFailedException(describeDeath(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WorkerFailedException("interrupted while waiting for the worker of " + name);
        } finally {
            pending.remove(id);
            lastActivityNanos = System.nanoTime();
        }
    }

    boolean isAlive() { return death == null; }

    /** Why the worker is dead, or null while it lives. */
    String death() { return death; }

    /** Kills the worker, saying why; every request in flight fails. */
    void kill(String why) {
        synchronized (this) {
            if (death != null) return;
            death = why;
        }
        connection.kill();
        WorkerFailedException failure = new WorkerFailedException(describeDeath());
        ready.completeExceptionally(failure);
        pending.values().forEach(p -> p.answer().completeExceptionally(failure));
        watchdog.interrupt();
    }

    /** Ends the worker: closing its input ends it; it is killed all the same, in case it does not listen. */
    @Override
    public void close() {
        kill("it was closed");
    }

    private String describeDeath() {
        return "the worker of " + name + " was stopped: " + death + " (" + connection.exitReport() + ")";
    }

    private void read() {
        try (DataInputStream answers = new DataInputStream(new BufferedInputStream(connection.input(), 1 << 16))) {
            Frames.Frame frame;
            while ((frame = Frames.read(answers)) != null) {
                if (frame.kind() == Frames.READY && frame.id() == 0) {
                    ready.complete(null);
                    continue;
                }
                Pending request = pending.get(frame.id());
                if (request == null) throw new Wire.WireException("an answer to no request (" + frame.id() + ")");
                request.answer().complete(frame);
            }
            kill("it exited");
        } catch (IOException | Wire.WireException e) {
            kill("it broke the protocol or its output ended: " + e.getMessage());
        }
    }

    private void watch() {
        var process = connection.process();
        long last = System.nanoTime();
        while (death == null) {
            try {
                Thread.sleep(WATCH_PERIOD.toMillis());
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (Pending request : pending.values()) {
                if (now - request.deadlineNanos() > 0) {
                    kill(request.what() + " ran past its bound of " + request.bound().toSeconds() + " s and was killed");
                    return;
                }
            }
            if (process.isPresent() && ready.isDone()) {
                if (!pending.isEmpty() || lastActivityNanos - last >= 0) {
                    idleCpu.busy();
                } else {
                    String burning = idleCpu.idle(now, IdleCpuWatch.demandNanos(process.get()));
                    if (burning != null) {
                        kill(burning);
                        return;
                    }
                }
            }
            last = now;
        }
    }
}
