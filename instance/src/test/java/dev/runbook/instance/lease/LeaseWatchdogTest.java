package dev.runbook.instance.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watchdog against a stand-in server: a process with two children, named in
 * {@code postmaster.pid} as PostgreSQL names its postmaster. Real processes, real signals.
 */
class LeaseWatchdogTest {
    @TempDir
    Path dir;
    private Process server;
    private LeaseWatchdog watchdog;

    @AfterEach
    void stop() {
        if (watchdog != null) {
            watchdog.close();
        }
        if (server != null) {
            server.descendants().forEach(ProcessHandle::destroyForcibly);
            server.destroyForcibly();
        }
    }

    @Test
    void killsTheServerAndEverySessionOnceTheLeaseHasRunOutAndNotBefore() throws IOException {
        Path data = startServer();
        List<ProcessHandle> sessions = server.descendants().toList();
        PrimaryLease lease = new PrimaryLease(dir, Uptime.system());
        lease.renew(Uptime.system().centiseconds(), Duration.ofSeconds(2));
        watchdog = new LeaseWatchdog(dir, data, lease.file());
        watchdog.ensureRunning();
        await("the server lives while the lease holds").during(Duration.ofMillis(1200)).atMost(Duration.ofMillis(1500))
                .until(server::isAlive);
        await("the watchdog kills the server once the lease has run out").atMost(Duration.ofSeconds(5)).until(() -> !server.isAlive());
        await("every child of the server is killed with it").atMost(Duration.ofSeconds(2))
                .until(() -> sessions.stream().noneMatch(ProcessHandle::isAlive));
        assertThat(lease.deadline()).as("an enforced lease is gone").isEmpty();
        assertThat(watchdog.takeExpiry()).as("and it leaves a note for the manager").isNotEmpty();
    }

    @Test
    void killsAPausedServerAtOnceWhenTheManagerSaysSo() throws IOException, InterruptedException {
        Path data = startServer();
        new ProcessBuilder("kill", "-STOP", Long.toString(server.pid())).start().waitFor();
        watchdog = new LeaseWatchdog(dir, data, dir.resolve(PrimaryLease.FILE));
        watchdog.killServer();
        await("SIGKILL needs no cooperation from a stopped process").atMost(Duration.ofSeconds(5)).until(() -> !server.isAlive());
    }

    @Test
    void leavesAServerAloneWithoutALease() throws IOException {
        Path data = startServer();
        watchdog = new LeaseWatchdog(dir, data, dir.resolve(PrimaryLease.FILE));
        watchdog.ensureRunning();
        await("no lease, nothing to enforce").during(Duration.ofMillis(800)).atMost(Duration.ofSeconds(1)).until(server::isAlive);
    }

    /** A stand-in server: bash with two sleeping children, its pid on postmaster.pid's first line. */
    private Path startServer() throws IOException {
        Path data = Files.createDirectories(dir.resolve("data"));
        server = new ProcessBuilder("bash", "-c", "sleep 600 & sleep 600 & wait").start();
        await("the stand-in server has its children").atMost(Duration.ofSeconds(5)).until(() -> server.descendants().count() == 2);
        Files.writeString(data.resolve("postmaster.pid"), server.pid() + "\n" + data + "\n");
        return data;
    }
}
