package dev.runbook.operator.isolation;

import dev.runbook.engine.policy.Isolation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The worker host: {@code runbook worker-host}, the second container of the operator's pod, which has
 * no ServiceAccount token. It listens on a Unix socket in a volume the two containers share; each
 * connection the operator opens is one worker process, started here with the heap, CPU time and
 * threads the connection asks for ({@link WorkerSockets}), its bytes passed through both ways. When the
 * connection closes (the operator killed the worker, or went away) the worker is killed; a worker past
 * its CPU time is killed too, and its connection closed. Where the machine lets it, workers run in
 * bubblewrap's sandbox as the operator's own do; in a pod that forbids namespaces they are plain
 * processes, and the container is the boundary (docs/security.md).
 */
public final class WorkerHost implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerHost.class);
    /** The largest heap a connection may ask for: the container's memory limit bounds it anyway. */
    static final long MAX_HEAP_MIB = 64 * 1024;
    /** How often a worker's CPU time is read against its limit. */
    static final Duration CPU_CHECK_PERIOD = Duration.ofSeconds(1);

    private final Path socket;
    private final Isolation.Worker kind;
    private final ServerSocketChannel server;
    private final Set<WorkerConnection> workers = ConcurrentHashMap.newKeySet();
    private final AtomicLong connections = new AtomicLong();
    private volatile boolean closed;

    /**
     * Listens on {@code socket} (a file left by an earlier host is replaced).
     *
     * @param kind {@link Isolation.Worker#SANDBOX} or {@link Isolation.Worker#PROCESS}: how this host starts workers
     */
    public WorkerHost(Path socket, Isolation.Worker kind) throws IOException {
        if (kind == Isolation.Worker.SOCKET) throw new IllegalArgumentException("a worker host starts sandbox or process workers");
        this.socket = socket;
        this.kind = kind;
        Files.deleteIfExists(socket);
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Thread accepting = new Thread(this::accept, "runbook-worker-host");
        accepting.setDaemon(true);
        accepting.start();
    }

    public Path socket() { return socket; }

    /** How many workers run now. */
    public int workers() { return workers.size(); }

    private void accept() {
        while (!closed) {
            try {
                SocketChannel channel = server.accept();
                long id = connections.incrementAndGet();
                Thread serving = new Thread(() -> serve(channel, id), "runbook-worker-host-" + id);
                serving.setDaemon(true);
                serving.start();
            } catch (IOException e) {
                if (!closed) LOG.warn("worker host: accepting a connection failed: {}", e.getMessage());
            }
        }
    }

    private void serve(SocketChannel channel, long id) {
        WorkerConnection worker = null;
        try (channel) {
            InputStream fromOperator = ChannelStreams.input(channel);
            OutputStream toOperator = ChannelStreams.output(channel);
            DataInputStream header = new DataInputStream(fromOperator);
            if (header.readInt() != WorkerSockets.MAGIC) throw new IOException("not an operator of this version");
            long heapMiB = header.readLong();
            long cpuSeconds = header.readLong();
            int threads = header.readInt();
            if (heapMiB <= 0 || heapMiB > MAX_HEAP_MIB || cpuSeconds <= 0 || threads <= 0 || threads > 1024) {
                throw new IOException("a worker of " + heapMiB + " MiB, " + cpuSeconds + " s of CPU and " + threads + " threads");
            }
            Isolation isolation = new Isolation(Isolation.Trust.IN_PROCESS, Isolation.Trust.ISOLATED, kind, null, heapMiB,
                    Duration.ofSeconds(cpuSeconds));
            worker = new WorkerProcesses(new WorkerCommand(isolation, threads)).start("connection " + id);
            workers.add(worker);
            WorkerConnection started = worker;
            // A worker that ends closes its connection, so that the operator knows at once.
            Thread answers = pump(worker.input(), toOperator, "runbook-worker-host-out-" + id, () -> {
                started.kill();
                closeQuietly(channel);
            });
            watchCpu(worker, Duration.ofSeconds(cpuSeconds), channel);
            // Requests, flushed one read at a time: the worker's input is buffered.
            pump(fromOperator, worker.output(), "runbook-worker-host-in-" + id, started::kill).join();
            answers.join();
        } catch (IOException | IllegalStateException e) {
            LOG.debug("worker host: connection {} ended: {}", id, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (worker != null) {
                // The operator closed the connection (it killed the worker) or the worker ended: it goes either way.
                worker.kill();
                workers.remove(worker);
            }
        }
    }

    /** Copies the worker's answers to the operator on a thread of their own; {@code onEnd} when either side ends. */
    private static Thread pump(InputStream from, OutputStream to, String name, Runnable onEnd) {
        Thread thread = new Thread(() -> {
            try {
                byte[] buffer = new byte[1 << 16];
                int read;
                while ((read = from.read(buffer)) >= 0) {
                    to.write(buffer, 0, read);
                    to.flush();
                }
            } catch (IOException e) {
                // Either side went away.
            } finally {
                onEnd.run();
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Kills the worker, and closes its connection, once its processes used more than {@code limit} of CPU time. */
    private static void watchCpu(WorkerConnection worker, Duration limit, SocketChannel channel) {
        ProcessHandle process = worker.process().orElseThrow();
        Thread thread = new Thread(() -> {
            while (process.isAlive()) {
                if (IdleCpuWatch.cpuNanos(process) > limit.toNanos()) {
                    LOG.warn("worker host: a worker used more than {} s of CPU time: killed", limit.toSeconds());
                    worker.kill();
                    closeQuietly(channel);
                    return;
                }
                try {
                    Thread.sleep(CPU_CHECK_PERIOD.toMillis());
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "runbook-worker-host-cpu");
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // Closed either way.
        }
    }

    /** Stops listening and kills every worker. */
    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        workers.forEach(WorkerConnection::kill);
        Files.deleteIfExists(socket);
    }
}
