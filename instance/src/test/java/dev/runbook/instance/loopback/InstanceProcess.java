package dev.runbook.instance.loopback;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** One running instance manager: the process the database container would be, and the pod uid it belongs to. */
record InstanceProcess(String pod, String uid, Process process, Path dataDir, int httpPort) {

    /** SIGKILL to the server's postmaster and to the instance manager: the container dies at once. */
    void kill9() {
        postmaster().ifPresent(ProcessHandle::destroyForcibly);
        process.descendants().forEach(ProcessHandle::destroyForcibly);    // the JVM under runuser
        process.destroyForcibly();
        waitFor(10);
    }

    /** SIGTERM, as the kubelet stops a container: the instance manager stops its server cleanly first. */
    void terminate() {
        process.destroy();
        if (!waitFor(60)) {
            kill9();
        }
    }

    boolean alive() {
        return process.isAlive();
    }

    /** The instance manager's JVM: the process itself, or its child under runuser. */
    long managerPid() {
        return process.descendants().filter(h -> h.info().command().map(c -> c.endsWith("java")).orElse(false))
                .findFirst().map(ProcessHandle::pid).orElse(process.pid());
    }

    Optional<ProcessHandle> postmaster() {
        try {
            List<String> lines = Files.readAllLines(dataDir.resolve("postmaster.pid"));
            return lines.isEmpty() ? Optional.empty() : ProcessHandle.of(Long.parseLong(lines.get(0).trim()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private boolean waitFor(int seconds) {
        try {
            return process.waitFor(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
