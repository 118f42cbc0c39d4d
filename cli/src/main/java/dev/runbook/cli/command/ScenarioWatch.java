package dev.runbook.cli.command;

import dev.runbook.operator.command.BundleArgument;
import dev.runbook.engine.bundle.BundleSpecParser;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.files.EditorFiles;
import dev.runbook.testkit.invariant.Invariants;
import dev.runbook.engine.policy.Policy;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import dev.runbook.testkit.scenario.Scenario;
import dev.runbook.testkit.scenario.ScenarioSuite;
import dev.runbook.operator.reload.BundleConfigMaps;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code runbook test --watch}: runs the scenarios, then again on every save, with the JDK's
 * WatchService (inotify on Linux) over the bundle's directories. What runs again is what the change can
 * affect: a change to anything but a scenario file (a rule, a template, a sample, bundle.yaml)
 * recompiles the bundle and reruns every scenario; a change to scenario files alone reruns those files
 * on the bundle compiled before. Each run ends with {@code N passed, M failed} and how long it took from
 * the change being seen. A bundle that does not compile prints its problems and waits for the next save.
 */
final class ScenarioWatch implements AutoCloseable {
    /** Editors save in several writes (write, rename, touch): changes this close together are one save. */
    static final long SETTLE_MILLIS = 50;

    private final Path bundle;
    private final List<Path> chosen;
    private final PrintWriter out;
    private final PrintWriter err;
    private final WatchService watcher;
    private final Map<WatchKey, Path> directories = new HashMap<>();
    /** The scenarios' runner, with the invariants as they were at the last compile. */
    private ScenarioRun run;
    private final CountDownLatch closed = new CountDownLatch(1);
    private Thread thread;
    private CompiledBundle compiled;

    private final Policy policy;

    /**
     * @param chosen the scenario files to run on a full run; empty for all of the bundle's
     * @param policy the administrator's policy every plan is checked against
     */
    ScenarioWatch(Path bundle, List<Path> chosen, Policy policy, PrintWriter out, PrintWriter err) {
        this.policy = policy;
        this.bundle = bundle.toAbsolutePath().normalize();
        this.chosen = chosen;
        this.out = out;
        this.err = err;
        try {
            this.watcher = FileSystems.getDefault().newWatchService();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Watches, runs every scenario once, then reruns on changes on a thread of its own. */
    void start() {
        register(bundle);
        runAll(System.nanoTime(), "start");
        thread = new Thread(this::loop, "runbook-test-watch");
        thread.setDaemon(true);
        thread.start();
    }

    /** Blocks until {@link #close()}. */
    void awaitClose() {
        try {
            closed.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void loop() {
        try {
            while (closed.getCount() > 0) {
                WatchKey key = watcher.take();
                long seen = System.nanoTime();
                Set<String> changed = new TreeSet<>();
                collect(key, changed);
                while ((key = watcher.poll(SETTLE_MILLIS, TimeUnit.MILLISECONDS)) != null) collect(key, changed);
                if (!changed.isEmpty()) rerun(changed, seen);
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // closing
        }
    }

    private void rerun(Set<String> changed, long seen) {
        List<Path> scenarioFiles = changed.stream().filter(ScenarioWatch::isScenarioFile).map(bundle::resolve)
                .filter(Files::isRegularFile).toList();
        boolean onlyScenarios = compiled != null && changed.stream().allMatch(ScenarioWatch::isScenarioFile);
        if (!onlyScenarios) {
            runAll(seen, String.join(", ", changed));
        } else if (!scenarioFiles.isEmpty()) {
            out.println("--- " + String.join(", ", changed) + " changed: running its scenarios");
            runScenarios(scenarioFiles, seen);
        }
    }

    private void runAll(long seen, String why) {
        out.println("--- " + why + ": compiling " + bundle.getFileName() + " and running " + (chosen.isEmpty() ? "every scenario" : chosen));
        try {
            compiled = BundleArgument.compile(bundle);
            run = new ScenarioRun(Invariants.load(bundle), policy);
        } catch (InvalidInputException e) {
            compiled = null;
            for (Problem problem : e.getProblems()) out.println(problem);
            out.printf("does not compile (%d ms); waiting for the next save%n", millisSince(seen));
            out.flush();
            return;
        }
        out.printf("compiled (%d ms)%n", millisSince(seen));
        runScenarios(chosen.isEmpty() ? List.of() : chosen, seen);
    }

    private void runScenarios(List<Path> files, long seen) {
        try {
            List<Scenario> scenarios = ScenarioSuite.read(bundle, files);
            ScenarioRun.Outcome outcome = run.run(compiled, scenarios, out);
            out.printf("%d passed, %d failed (%d ms from the change to this line)%n", outcome.passed(), outcome.failed(), millisSince(seen));
        } catch (InvalidInputException e) {
            for (Problem problem : e.getProblems()) out.println(problem);
            out.printf("scenario files not valid (%d ms); waiting for the next save%n", millisSince(seen));
        } catch (RuntimeException e) {
            err.println("runbook: " + e.getMessage());
        }
        out.flush();
    }

    /** Adds the changed paths (relative to the bundle) of a key's events; watches new directories too. */
    private void collect(WatchKey key, Set<String> changed) {
        Path directory = directories.get(key);
        for (WatchEvent<?> event : key.pollEvents()) {
            if (event.kind() == StandardWatchEventKinds.OVERFLOW || directory == null) {
                changed.add("(many files)");
                continue;
            }
            Path path = directory.resolve((Path) event.context());
            if (event.kind() == StandardWatchEventKinds.ENTRY_CREATE && Files.isDirectory(path)) register(path);
            String relative = bundle.relativize(path).toString().replace('\\', '/');
            if (isBundleFile(relative)) changed.add(relative);
        }
        if (!key.reset()) directories.remove(key);
    }

    /**
     * Whether a change to this path (relative to the bundle) can change a result: bundle.yaml and what
     * lies under the directories a bundle is made of (those {@code runbook pack} carries), but none of
     * an editor's swap, backup or temporary files there, nor anything else (a README, the CRDs).
     */
    static boolean isBundleFile(String relative) {
        String name = relative.substring(relative.lastIndexOf('/') + 1);
        if (EditorFiles.isTemporary(name)) return false;
        if (relative.equals(BundleSpecParser.FILE)) return true;
        int slash = relative.indexOf('/');
        return slash > 0 && BundleConfigMaps.DIRECTORIES.contains(relative.substring(0, slash));
    }

    private static boolean isScenarioFile(String path) {
        return path.startsWith(ScenarioSuite.DIRECTORY + "/") && path.endsWith(".yaml");
    }

    private void register(Path root) {
        try (Stream<Path> dirs = Files.walk(root)) {
            for (Path dir : dirs.filter(Files::isDirectory).toList()) {
                directories.put(dir.register(watcher, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
                        StandardWatchEventKinds.ENTRY_DELETE), dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot watch " + root + ": " + e.getMessage(), e);
        }
    }

    private static long millisSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }

    @Override
    public void close() {
        closed.countDown();
        try {
            watcher.close();
        } catch (IOException e) {
            // nothing more to watch either way
        }
        if (thread != null) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
