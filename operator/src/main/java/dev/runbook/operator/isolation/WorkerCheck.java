package dev.runbook.operator.isolation;

import dev.runbook.engine.policy.Isolation;

/**
 * At the operator's start, whether it can start the workers its policy asks for: one is started and
 * must say it is ready. So a machine without bubblewrap, or without unprivileged user namespaces, stops
 * {@code runbook run} at once with what to do, instead of refusing every bundle ConfigMap later. The
 * worker host of a socket is not tried: its container may start after the operator's.
 */
public final class WorkerCheck {
    private WorkerCheck() {}

    /**
     * @param configMaps whether the operator runs bundles from ConfigMaps
     * @throws IllegalArgumentException naming what is missing and the policy's alternatives
     */
    public static void requireWorkers(Isolation isolation, boolean configMaps, int threads) {
        boolean needed = isolation.images() == Isolation.Trust.ISOLATED
                || (configMaps && isolation.configMaps() == Isolation.Trust.ISOLATED);
        if (!needed || isolation.worker() == Isolation.Worker.SOCKET) return;
        try (WorkerClient worker = new WorkerClient(WorkerLauncher.of(isolation, threads).start("the start-up check"),
                "the start-up check", WorkerBounds.START)) {
            // Ready: the sandbox works here.
        } catch (java.io.IOException | IllegalStateException | WorkerFailedException e) {
            throw new IllegalArgumentException("the policy runs bundles in worker processes (isolation.worker: "
                    + isolation.workerWord() + "), and none could be started here: " + e.getMessage()
                    + ". Install bubblewrap and allow unprivileged user namespaces, run the worker container "
                    + "(isolation.worker: unix:/run/runbook/worker.sock), or, trusting every bundle author, set "
                    + "isolation.configMaps: in-process (docs/security.md, \"The process boundary\")", e);
        }
    }
}
