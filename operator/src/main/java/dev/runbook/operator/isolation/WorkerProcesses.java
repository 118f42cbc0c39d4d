package dev.runbook.operator.isolation;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;

/**
 * Starts workers as child processes of this one ({@link WorkerCommand}): sandboxed by bubblewrap, or
 * plain processes where the policy says so. A killed worker is killed with everything under it.
 */
final class WorkerProcesses implements WorkerLauncher {
    private final WorkerCommand command;

    WorkerProcesses(WorkerCommand command) {
        this.command = command;
    }

    @Override
    public WorkerConnection start(String name) throws IOException {
        List<String> line = command.command();
        ProcessBuilder builder = new ProcessBuilder(line);
        // Nothing of the operator's environment (KUBECONFIG, tokens, proxies) is handed on.
        builder.environment().clear();
        builder.environment().put("MALLOC_ARENA_MAX", "2");
        builder.directory(new java.io.File(System.getProperty("java.io.tmpdir")));
        Process process = builder.start();
        return new Child(process, new StderrTail(process.getErrorStream(), name));
    }

    private record Child(Process child, StderrTail stderr) implements WorkerConnection {
        @Override
        public InputStream input() { return child.getInputStream(); }

        @Override
        public OutputStream output() { return child.getOutputStream(); }

        @Override
        public Optional<ProcessHandle> process() { return Optional.of(child.toHandle()); }

        @Override
        public void kill() {
            // Children first: the JVM under bubblewrap's monitor, which would otherwise outlive a killed parent briefly.
            child.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            child.destroyForcibly();
        }

        @Override
        public String exitReport() {
            try {
                // A worker just killed is gone a moment later: say how it ended rather than that it still runs.
                child.waitFor(1, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            String status = child.isAlive() ? "still running" : "exit status " + child.exitValue();
            String tail = stderr.text();
            return status + (tail.isEmpty() ? "" : "; its last output: " + tail);
        }
    }
}
