package dev.runbook.operator.isolation;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Workers started by the worker host in the pod's second container ({@link WorkerHost}), which holds no
 * ServiceAccount token: each connection to its Unix socket is one worker, started for it with the
 * heap, CPU time and threads the connection's first bytes ask for, and killed when the connection
 * closes. So closing the socket is how the operator kills a worker it cannot see.
 */
final class WorkerSockets implements WorkerLauncher {
    /** The first bytes of a connection, so that the host knows it is talking to an operator of this version. */
    static final int MAGIC = 0x52424b31; // "RBK1"

    private final Path socket;
    private final long heapMiB;
    private final Duration cpu;
    private final int threads;

    WorkerSockets(Path socket, long heapMiB, Duration cpu, int threads) {
        this.socket = socket;
        this.heapMiB = heapMiB;
        this.cpu = cpu;
        this.threads = threads;
    }

    @Override
    public WorkerConnection start(String name) throws IOException {
        SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            channel.connect(UnixDomainSocketAddress.of(socket));
            OutputStream output = ChannelStreams.output(channel);
            DataOutputStream header = new DataOutputStream(output);
            header.writeInt(MAGIC);
            header.writeLong(heapMiB);
            header.writeLong(cpu.toSeconds());
            header.writeInt(threads);
            header.flush();
            return new Connected(channel, ChannelStreams.input(channel), output, socket);
        } catch (IOException e) {
            channel.close();
            throw new IOException("the worker host at " + socket + " cannot be reached: " + e.getMessage()
                    + " (is the pod's worker container running? docs/security.md)", e);
        }
    }

    private record Connected(SocketChannel channel, InputStream input, OutputStream output, Path socket)
            implements WorkerConnection {
        @Override
        public Optional<ProcessHandle> process() { return Optional.empty(); }

        @Override
        public void kill() {
            try {
                channel.close();
            } catch (IOException e) {
                // Closed either way: the host kills the worker.
            }
        }

        @Override
        public String exitReport() { return "its connection to the worker host at " + socket + " closed"; }
    }
}
