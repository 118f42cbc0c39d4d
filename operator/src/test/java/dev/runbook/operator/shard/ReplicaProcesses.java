package dev.runbook.operator.shard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The replicas of {@link ShardsE2E}: each a process of {@code ./runbook run --shards --member NAME
 * --leader-election} started from the project's checkout, its output in {@code NAME-K.log} and its
 * cycles in {@code NAME-K.jsonl} ({@link CycleJournal}; K counts the member's starts), stopped with
 * SIGTERM or killed with SIGKILL. Every journal any of them wrote is read back for {@link DoubleActors}.
 */
final class ReplicaProcesses implements AutoCloseable {
    /** Each replica's heap: the deployment's limit (1Gi x MaxRAMPercentage=75) is more than a share needs. */
    static final String JAVA_OPTS = "-Xmx512m";

    private final Path root;
    private final Path work;
    private final String kubeconfig;
    private final String namespace;
    private final String ownNamespace;
    private final String extraJavaOpts;
    private final Map<String, Process> running = new LinkedHashMap<>();
    private final List<Path> journals = new ArrayList<>();
    private final Map<String, Integer> starts = new LinkedHashMap<>();

    /**
     * @param extraJavaOpts more JVM options for every replica (a test-only switch, or "")
     */
    ReplicaProcesses(Path root, Path work, String kubeconfig, String namespace, String ownNamespace, String extraJavaOpts) {
        this.root = root;
        this.work = work;
        this.kubeconfig = kubeconfig;
        this.namespace = namespace;
        this.ownNamespace = ownNamespace;
        this.extraJavaOpts = extraJavaOpts;
    }

    /**
     * {@code ./runbook lint} of the bundle, which stores it in the compiled-bundle cache the replicas then read
     * (the same RUNBOOK_BUNDLE_CACHE), instead of each compiling it at its start.
     */
    void compileTheBundleOnce() throws InterruptedException, IOException {
        Process lint = new ProcessBuilder(root.resolve("runbook").toString(), "lint", "runbooks/postgres-cluster")
                .directory(root.toFile()).redirectErrorStream(true).redirectOutput(work.resolve("lint.log").toFile()).start();
        if (lint.waitFor() != 0) throw new IllegalStateException("runbook lint runbooks/postgres-cluster failed: see " + work.resolve("lint.log"));
    }

    void start(String member) {
        int start = starts.merge(member, 1, Integer::sum);
        Path journal = work.resolve(member + "-" + start + ".jsonl");
        ProcessBuilder run = new ProcessBuilder(root.resolve("runbook").toString(), "run", "--bundle", "runbooks/postgres-cluster",
                "--namespace", namespace, "--operator-namespace", ownNamespace, "--shards", "--member", member, "--leader-election",
                "--http-port", "0", "--cycle-journal", journal.toString())
                .directory(root.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(work.resolve(member + "-" + start + ".log").toFile()));
        run.environment().put("KUBECONFIG", kubeconfig);
        run.environment().put("RUNBOOK_JAVA_OPTS", (JAVA_OPTS + " " + extraJavaOpts).trim());
        try {
            running.put(member, run.start());
        } catch (IOException e) {
            throw new UncheckedIOException("./runbook run cannot be started for " + member + ": " + e.getMessage(), e);
        }
        journals.add(journal);
    }

    /** SIGKILL: the replica stops at once, renewing nothing and releasing nothing. */
    void kill(String member) throws InterruptedException {
        Process process = running.remove(member);
        process.destroyForcibly();
        process.waitFor();
    }

    /** The members whose process runs (a replica that exited on its own is not one). */
    TreeSet<String> live() {
        TreeSet<String> live = new TreeSet<>();
        running.forEach((member, process) -> {
            if (process.isAlive()) live.add(member);
        });
        return live;
    }

    /** Every cycle in every journal so far. */
    List<DoubleActors.Cycle> cycles() {
        List<DoubleActors.Cycle> cycles = new ArrayList<>();
        for (Path journal : journals) {
            if (Files.exists(journal)) cycles.addAll(CycleJournal.read(journal));
        }
        return cycles;
    }

    /** SIGTERM to each (a clean stop: cycles finish, Leases are released), then SIGKILL after 30 s. */
    @Override
    public void close() throws InterruptedException {
        running.values().forEach(Process::destroy);
        for (Process process : running.values()) {
            if (!process.waitFor(30, TimeUnit.SECONDS)) process.destroyForcibly().waitFor();
        }
        running.clear();
    }
}
