package dev.runbook.operator.isolation;

import dev.runbook.engine.containment.AllowList;
import dev.runbook.engine.containment.FirstLine;
import dev.runbook.engine.policy.Isolation;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The command line of a worker process: a JVM with its own heap limit running {@link WorkerMain} on
 * this process's class path, under {@code prlimit} (a CPU-time limit the kernel enforces, no core
 * dumps), and for {@link Isolation.Worker#SANDBOX} inside bubblewrap ({@link SandboxView}): new user,
 * mount, network, pid, IPC and UTS namespaces, an empty environment, a read-only view of the JDK and the
 * class path and nothing else, as an unprivileged user when this process is root.
 */
final class WorkerCommand {
    /** The user a worker runs as when the operator runs as root: nobody. */
    static final int UNPRIVILEGED_ID = 65534;
    /** Threads the user of sandboxed workers may have at once (RLIMIT_NPROC), when that user is their own. */
    static final int THREAD_LIMIT = 1024;
    /** The virtual memory a worker may map beyond its heap: code, metaspace, thread stacks, the mapped JDK. */
    static final long ADDRESS_SPACE_BEYOND_HEAP_MIB = 1536;

    private final Isolation isolation;
    private final int threads;

    WorkerCommand(Isolation isolation, int threads) {
        this.isolation = isolation;
        this.threads = threads;
    }

    /** The command, or a message saying what this machine lacks for it. */
    List<String> command() {
        List<String> command = new ArrayList<>();
        boolean root = isRoot();
        boolean sandbox = isolation.worker() == Isolation.Worker.SANDBOX;
        if (sandbox) {
            Path bwrap = Executables.find("bwrap").orElseThrow(() -> new IllegalStateException(
                    "the policy's isolation.worker is sandbox, which needs bubblewrap (bwrap) on PATH: install it "
                            + "(Debian: apt-get install bubblewrap), or run the worker container (isolation.worker: "
                            + "unix:/run/runbook/worker.sock, see docs/security.md)"));
            if (root) {
                Path setpriv = Executables.find("setpriv").orElseThrow(() -> new IllegalStateException(
                        "the operator runs as root and needs setpriv (util-linux) to start its workers as an unprivileged user"));
                command.addAll(List.of(setpriv.toString(), "--reuid=" + UNPRIVILEGED_ID, "--regid=" + UNPRIVILEGED_ID,
                        "--clear-groups", "--"));
            }
            limits(command, root);
            command.add(bwrap.toString());
            command.addAll(SandboxView.arguments(javaCommand(), classPath(root)));
        } else {
            limits(command, false);
        }
        command.addAll(jvm(sandbox && root));
        return command;
    }

    /** A worker that drops to an unprivileged user must reach its class path as that user. */
    private static List<String> classPath(boolean unprivileged) {
        return unprivileged ? WorkerClassPath.reachableByAll() : WorkerClassPath.entries();
    }

    /** prlimit's resource limits, when this machine has prlimit: the CPU time of the worker's life, no core dumps, its address space. */
    private void limits(List<String> command, boolean ownUser) {
        Optional<Path> prlimit = Executables.find("prlimit");
        if (prlimit.isEmpty()) return;
        long cpu = Math.max(1, isolation.workerCpu().toSeconds());
        command.add(prlimit.get().toString());
        command.add("--cpu=" + cpu + ":" + (cpu + 5));
        command.add("--core=0");
        command.add("--as=" + (isolation.workerHeapMiB() + ADDRESS_SPACE_BEYOND_HEAP_MIB) * 1024 * 1024);
        if (ownUser) command.add("--nproc=" + THREAD_LIMIT);
        command.add("--");
    }

    private List<String> jvm(boolean unprivileged) {
        List<String> jvm = new ArrayList<>(List.of(javaCommand().toString(),
                "-Xmx" + isolation.workerHeapMiB() + "m", "-Xss1m",
                "-XX:+UseSerialGC", "-XX:-UsePerfData",
                "-XX:ReservedCodeCacheSize=64m", "-XX:CompressedClassSpaceSize=128m", "-XX:MaxMetaspaceSize=256m",
                "-Djava.io.tmpdir=/tmp", "-Duser.home=/nonexistent"));
        // What the administrator set for rule code, handed on: the worker's environment is empty.
        String allow = String.join(",", AllowList.administratorEntries());
        if (!allow.isEmpty()) jvm.add("-D" + AllowList.PROPERTY + "=" + allow);
        forward(jvm, FirstLine.PROPERTY);
        forward(jvm, "runbook.budgetClock");
        jvm.add("-cp");
        jvm.add(String.join(":", classPath(unprivileged)));
        jvm.add(WorkerMain.class.getName());
        jvm.add(Integer.toString(threads));
        return jvm;
    }

    private static void forward(List<String> jvm, String property) {
        String value = System.getProperty(property);
        if (value != null) jvm.add("-D" + property + "=" + value);
    }

    static Path javaCommand() {
        return Path.of(ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    }

    /** Whether this process runs as root (uid 0), read from /proc: a worker then drops to {@link #UNPRIVILEGED_ID}. */
    static boolean isRoot() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) return line.substring(4).strip().split("\\s+")[1].equals("0");
            }
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
        return false;
    }
}
