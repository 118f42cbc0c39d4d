package dev.runbook.operator.isolation;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A worker process: compiles, vets and runs one bundle's rules for the operator, holding nothing the
 * operator has (docs/security.md, "The process boundary"). It reads requests from its standard input
 * and writes answers to its standard output ({@link Frames}); it ends when its input ends. A bundle's
 * code that prints writes to standard error: {@code System.out} is pointed there before anything else
 * runs, so that nothing but this class writes on the channel.
 *
 * <p>Usage: {@code WorkerMain THREADS}, the number of cycles it decides at once.
 */
public final class WorkerMain {
    private WorkerMain() {}

    public static void main(String[] args) throws IOException {
        DataOutputStream channel = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16));
        DataInputStream requests = new DataInputStream(new BufferedInputStream(new FileInputStream(FileDescriptor.in), 1 << 16));
        System.setOut(System.err);
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        serve(requests, channel, threads);
        // Only this thread ends here; a bundle's own threads, if any, must not keep the process alive.
        Runtime.getRuntime().halt(0);
    }

    /** Answers requests until the input ends. */
    static void serve(DataInputStream requests, DataOutputStream channel, int threads) throws IOException {
        WorkerRequests handler = new WorkerRequests();
        ExecutorService cycles = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "runbook-worker-cycle");
            thread.setDaemon(true);
            return thread;
        });
        try {
            send(channel, new Frames.Frame(0, Frames.READY, new byte[0]));
            Frames.Frame request;
            while ((request = Frames.read(requests)) != null) {
                Frames.Frame asked = request;
                if (asked.kind() == Frames.LOAD) {
                    // A load replaces the bundle: no cycle runs while it does (the operator sends none meanwhile).
                    send(channel, answer(asked, () -> handler.load(asked.id(), asked.payload())));
                } else if (asked.kind() == Frames.DECIDE) {
                    cycles.execute(() -> send(channel, answer(asked, () -> handler.decide(asked.id(), asked.payload()))));
                } else {
                    send(channel, WorkerRequests.message(asked.id(), Frames.ERROR, "unknown request " + asked.kind()));
                }
            }
        } finally {
            cycles.shutdownNow();
        }
    }

    private static Frames.Frame answer(Frames.Frame request, java.util.function.Supplier<Frames.Frame> work) {
        try {
            return work.get();
        } catch (Wire.WireException e) {
            return WorkerRequests.message(request.id(), Frames.ERROR, "a malformed request: " + e.getMessage());
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            return WorkerRequests.message(request.id(), Frames.ERROR, e.toString());
        }
    }

    private static void send(DataOutputStream channel, Frames.Frame frame) {
        synchronized (channel) {
            try {
                Frames.write(channel, frame);
            } catch (IOException e) {
                // The operator is gone or killed us: nothing is left to answer.
                Runtime.getRuntime().halt(1);
            }
        }
    }
}
