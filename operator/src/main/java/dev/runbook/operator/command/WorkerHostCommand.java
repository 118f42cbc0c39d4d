package dev.runbook.operator.command;

import dev.runbook.engine.policy.Isolation;
import dev.runbook.operator.isolation.WorkerHost;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code runbook worker-host}: the pod's second container, which starts the operator's worker processes
 * without holding its credentials (docs/security.md, "The process boundary"). Runs until stopped.
 */
@Command(name = "worker-host", description = "Start the operator's worker processes on request over a Unix socket, "
        + "without its credentials: the second container of the operator's pod (docs/security.md).")
public final class WorkerHostCommand implements Callable<Integer> {
    @Option(names = "--socket", required = true, paramLabel = "PATH",
            description = "The Unix socket to listen on, in a volume shared with the operator's container; "
                    + "the policy's isolation.worker names it as unix:PATH.")
    Path socket;

    @Option(names = "--sandbox",
            description = "Start each worker in bubblewrap's namespaces, as the operator does on a host that allows them "
                    + "(default: plain processes; the container is the boundary).")
    boolean sandbox;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        CountDownLatch stop = new CountDownLatch(1);
        try (WorkerHost host = new WorkerHost(socket, sandbox ? Isolation.Worker.SANDBOX : Isolation.Worker.PROCESS)) {
            Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown, "runbook-worker-host-stop"));
            spec.commandLine().getOut().println("runbook: starting workers on request at unix:" + host.socket()
                    + (sandbox ? " (sandboxed)" : " (plain processes)"));
            spec.commandLine().getOut().flush();
            stop.await();
        }
        return ExitCodes.OK;
    }
}
