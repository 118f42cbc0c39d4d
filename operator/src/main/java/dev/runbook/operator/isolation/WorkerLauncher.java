package dev.runbook.operator.isolation;

import dev.runbook.engine.policy.Isolation;

import java.io.IOException;

/** Starts a worker process and hands back the operator's end of it. */
public interface WorkerLauncher {
    /**
     * @param name names the worker's threads and messages (its bundle's source)
     * @throws IOException when no worker could be started
     */
    WorkerConnection start(String name) throws IOException;

    /** The launcher the policy's {@code isolation.worker} names. */
    static WorkerLauncher of(Isolation isolation, int threads) {
        WorkerCommand command = new WorkerCommand(isolation, threads);
        return isolation.worker() == Isolation.Worker.SOCKET
                ? new WorkerSockets(isolation.socket(), isolation.workerHeapMiB(), isolation.workerCpu(), threads)
                : new WorkerProcesses(command);
    }
}
