package dev.runbook.instance.lease;

import dev.runbook.instance.backup.ToolScripts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Enforces the {@link PrimaryLease} from outside the manager's JVM: a small shell script, a child
 * process of the manager, that every 0.1 s compares the lease's deadline with {@code /proc/uptime}
 * and, once it has passed, kills the server (SIGSTOP to the postmaster so that it forks no more, then
 * SIGKILL to each of its children and to it: a paused server dies at once, without taking one more
 * commit) and removes the lease. A manager paused, starved of CPU or cut off from the API server
 * therefore cannot leave its server taking writes past the deadline. The manager runs the same
 * script to kill its server itself ({@link #killServer}), so there is one way to do it.
 *
 * <p>The watchdog outlives the manager only as long as a lease is left to enforce. It is as
 * Patroni's watchdog device to Patroni, one level down: it resets the server, not the machine.
 */
public final class LeaseWatchdog implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseWatchdog.class);
    public static final String SCRIPT = "lease-watchdog";
    public static final String EXPIRED = "lease-expired";

    private final Path runDir;
    private final Path dataDir;
    private final Path leaseFile;
    private Process process;

    public LeaseWatchdog(Path runDir, Path dataDir, Path leaseFile) {
        this.runDir = runDir;
        this.dataDir = dataDir;
        this.leaseFile = leaseFile;
    }

    /** Starts the watchdog, or starts it again if it has died. */
    public synchronized void ensureRunning() {
        if (process != null && process.isAlive()) {
            return;
        }
        Path script = writeScript();
        try {
            process = new ProcessBuilder("bash", script.toString(), "watch", Long.toString(ProcessHandle.current().pid()))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(runDir.resolve(SCRIPT + ".log").toFile()))
                    .start();
            LOG.info("lease watchdog running (pid {})", process.pid());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the lease watchdog", e);
        }
    }

    /** Kills the server now, as the watchdog does when the lease runs out (a server that hangs or must take no more writes). */
    public void killServer() {
        Path script = writeScript();
        try {
            Process kill = new ProcessBuilder("bash", script.toString(), "kill").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(runDir.resolve(SCRIPT + ".log").toFile())).start();
            if (!kill.waitFor(30, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
                throw new IllegalStateException("killing the server did not end within 30 s");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + script, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing the server", e);
        }
    }

    /** What the watchdog left when it enforced a lease since the last call ("" when it did not), and forget it. */
    public String takeExpiry() {
        Path note = runDir.resolve(EXPIRED);
        try {
            if (!Files.exists(note)) {
                return "";
            }
            String text = Files.readString(note).trim();
            Files.deleteIfExists(note);
            return text;
        } catch (IOException e) {
            return "";
        }
    }

    private Path writeScript() {
        Path script = runDir.resolve(SCRIPT);
        try {
            Files.deleteIfExists(script);
            Files.createFile(script, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Files.writeString(script, script(leaseFile, dataDir, runDir.resolve(EXPIRED)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + script, e);
        }
        return script;
    }

    static String script(Path lease, Path data, Path expired) {
        return String.join("\n", List.of(
                "#!/bin/bash",
                "# Written by the instance manager: the primary lease's watchdog (docs/instance-manager.md#fencing).",
                "#   watch MANAGER_PID  every 0.1 s: once the deadline in the lease (centiseconds of /proc/uptime) has passed,",
                "#                      kill the server and remove the lease; ends once the manager is gone and no lease is left",
                "#   kill               kill the server now",
                "lease=" + ToolScripts.quote(lease.toString()),
                "data=" + ToolScripts.quote(data.toString()),
                "expired=" + ToolScripts.quote(expired.toString()),
                "kill_server() {",
                "  local pm stat rest state ppid children=()",
                "  [[ -r $data/postmaster.pid ]] && read -r pm < \"$data/postmaster.pid\" || return 0",
                "  [[ $pm =~ ^[0-9]+$ ]] && kill -0 \"$pm\" 2>/dev/null || return 0",
                "  kill -STOP \"$pm\" 2>/dev/null   # it forks no new session while its children are found",
                "  for stat in /proc/[0-9]*/stat; do",
                "    { read -r rest < \"$stat\"; } 2>/dev/null || continue    # the process may have exited meanwhile",
                "    rest=${rest##*) }                # after the command name, which may hold spaces",
                "    read -r state ppid _ <<< \"$rest\"",
                "    [[ $ppid == \"$pm\" ]] && children+=(\"${stat//[^0-9]/}\")",
                "  done",
                "  kill -KILL \"${children[@]}\" \"$pm\" 2>/dev/null",
                "  TZ=UTC printf '%(%Y-%m-%dT%H:%M:%SZ)T killed the server: postmaster %s and %s children\\n' -1 \"$pm\" \"${#children[@]}\"",
                "}",
                "watch() {",
                "  local manager=$1 deadline up now tick",
                "  exec {tick}<> <(:)                  # a pipe nobody writes to: read -t on it sleeps without a fork",
                "  while :; do",
                "    if [[ -r $lease ]] && read -r deadline < \"$lease\" && [[ $deadline =~ ^[0-9]+$ ]]; then",
                "      read -r up _ < /proc/uptime",
                "      now=${up/./}",
                "      if (( 10#$now > deadline )); then",
                "        TZ=UTC printf '%(%Y-%m-%dT%H:%M:%SZ)T the lease ran out (deadline %s, now %s)\\n' -1 \"$deadline\" \"$now\"",
                "        kill_server",
                "        echo \"$now $deadline\" > \"$expired\"",
                "        rm -f \"$lease\"",
                "      fi",
                "    elif ! kill -0 \"$manager\" 2>/dev/null; then",
                "      exit 0",
                "    fi",
                "    read -rt 0.1 -u \"$tick\" _ || :",
                "  done",
                "}",
                "case $1 in",
                "  watch) watch \"$2\" ;;",
                "  kill) kill_server ;;",
                "  *) echo \"usage: $0 watch MANAGER_PID | kill\" >&2; exit 2 ;;",
                "esac",
                ""));
    }

    @Override
    public synchronized void close() {
        if (process != null) {
            process.destroy();
        }
    }
}
