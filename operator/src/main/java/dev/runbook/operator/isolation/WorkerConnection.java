package dev.runbook.operator.isolation;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.Optional;

/**
 * The operator's end of one worker: the streams to talk to it, and the means to end it from outside.
 * A worker this process started ({@link WorkerProcesses}) is a child process; one the worker host
 * started ({@link WorkerSockets}) is a socket, whose closing makes the host kill the worker.
 */
interface WorkerConnection {
    /** What the worker writes: answers. */
    InputStream input();

    /** What the worker reads: requests. */
    OutputStream output();

    /** The worker's process and its descendants' root, when this process can see it (for its CPU time). */
    Optional<ProcessHandle> process();

    /** Ends the worker now, without asking it: it is killed. Safe to call more than once. */
    void kill();

    /** What is known of how the worker ended: its exit status and the last lines it wrote to standard error. */
    String exitReport();
}
