package dev.runbook.operator.isolation;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.FiringLimitExceededException;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.controller.BundleRefusedException;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One bundle's worker over its life: the first worker, which compiled (and vetted) the bundle, and each
 * one started after a worker died, which compiles it again. Worker starts after deaths are spaced out
 * ({@link #backoff}), so that a bundle whose every cycle gets its worker killed costs a compile now and
 * then, not one per cycle. The worker lives while a controller holds the bundle ({@link #hold}): once
 * none does and no cycle runs on it, it is stopped (and started again if a controller holds the bundle
 * again, as a replica that leads again does). A worker that vetted a bundle nobody then holds (a review
 * of the webhook's, a refused install) is stopped after {@link #UNHELD_GRACE}.
 */
final class WorkerSession implements AutoCloseable {
    /** The first wait before a worker is started again after one died; it doubles with each death in a row. */
    static final Duration FIRST_BACKOFF = Duration.ofSeconds(5);
    static final Duration MAX_BACKOFF = Duration.ofMinutes(5);
    /** How long a worker that vetted its bundle waits for a controller to hold it (the reload after a review). */
    static final Duration UNHELD_GRACE = Duration.ofMinutes(2);

    /** What a load found: the rules' names, the compile's warnings, the scenarios that passed. */
    record Loaded(List<String> ruleNames, List<String> warnings, int scenarios) {}

    private final String origin;
    private final Map<String, String> files;
    private final Policy policy;
    private final WorkerLauncher launcher;
    private final AtomicInteger inFlight = new AtomicInteger();
    private WorkerClient worker;
    private int deathsInARow;
    private long notBeforeNanos;
    private String lastDeath;
    private int holders;
    private boolean everHeld;
    /** Closed for good: no worker is started again. */
    private volatile boolean closed;

    WorkerSession(String origin, Map<String, String> files, Policy policy, WorkerLauncher launcher) {
        this.origin = origin;
        this.files = Map.copyOf(files);
        this.policy = policy;
        this.launcher = launcher;
    }

    /**
     * Starts the first worker and loads the bundle into it, vetting it when asked.
     *
     * @throws BundleRefusedException the worker's refusal: a compile problem, a failing scenario
     * @throws WorkerFailedException  the worker could not start, died or was killed
     */
    synchronized Loaded start(boolean vet) {
        worker = newWorker();
        Loaded loaded = load(worker, vet);
        CompletableFuture.delayedExecutor(UNHELD_GRACE.toMillis(), TimeUnit.MILLISECONDS).execute(this::stopIfUnused);
        return loaded;
    }

    Decision decide(Observation observation, BundleSpec spec, String version) {
        inFlight.incrementAndGet();
        try {
            WorkerClient current = current();
            String what = "the cycle of " + observation.primary().getKind() + " " + observation.primary().getNamespace()
                    + "/" + observation.primary().getName();
            Frames.Frame answer = current.call(Frames.DECIDE, DecisionWire.observation(observation),
                    WorkerBounds.cycle(policy.containment()), what);
            Decision decision = answer(current, answer, spec, version, observation);
            synchronized (this) {
                deathsInARow = 0;
            }
            return decision;
        } finally {
            if (inFlight.decrementAndGet() == 0) stopIfReleased();
        }
    }

    private Decision answer(WorkerClient current, Frames.Frame answer, BundleSpec spec, String version, Observation observation) {
        try {
            Wire.In in = new Wire.In(answer.payload());
            switch (answer.kind()) {
                case Frames.OK:
                    return DecisionWire.decision(answer.payload(), spec.name(), version, observation.now());
                case Frames.RULE_FAILED:
                    throw ReportedRuleFailure.failed(in.readText("a rule"), in.readText("a message"));
                case Frames.RULE_STOPPED:
                    throw ReportedRuleFailure.stopped(in.readText("a rule"), in.readString(), in.readText("a message"));
                case Frames.FIRING_LIMIT: {
                    int count = in.count(8);
                    Map<String, Integer> top = new LinkedHashMap<>();
                    for (int i = 0; i < count; i++) top.put(in.readText("a rule"), in.readInt());
                    throw new FiringLimitExceededException(spec.limits().maxFirings(), top);
                }
                case Frames.INVALID:
                    throw new IllegalArgumentException(in.readText("a message"));
                case Frames.ERROR:
                    throw new IllegalStateException("the worker of " + origin + " failed: " + in.readText("a message"));
                default:
                    throw new Wire.WireException("an answer of kind " + answer.kind() + " to a cycle");
            }
        } catch (Wire.WireException e) {
            current.kill("its answer was malformed: " + e.getMessage());
            throw new WorkerFailedException("the worker of " + origin + " sent a malformed decision and was killed: "
                    + e.getMessage());
        }
    }

    /** The live worker, started again when the last one died and its backoff has passed. */
    private synchronized WorkerClient current() {
        if (closed) throw new WorkerFailedException("its worker was closed");
        if (worker != null && worker.isAlive()) return worker;
        if (worker != null) {
            lastDeath = worker.death();
            worker = null;
            deathsInARow++;
            notBeforeNanos = System.nanoTime() + backoff(deathsInARow).toNanos();
        }
        long wait = notBeforeNanos - System.nanoTime();
        if (wait > 0) {
            throw new WorkerFailedException("its worker was stopped (" + lastDeath + "); a new one starts in "
                    + Math.max(1, TimeUnit.NANOSECONDS.toSeconds(wait)) + " s");
        }
        WorkerClient started = newWorker();
        try {
            load(started, false);
        } catch (RuntimeException e) {
            started.kill("it could not load the bundle again: " + e.getMessage());
            worker = started;
            throw e instanceof WorkerFailedException failed ? failed : new WorkerFailedException(e.getMessage(), e);
        }
        worker = started;
        return started;
    }

    /** The wait before the next worker after {@code deaths} deaths in a row: 5 s, 10 s, 20 s ... at most 5 min. */
    static Duration backoff(int deaths) {
        Duration wait = FIRST_BACKOFF.multipliedBy(1L << Math.min(deaths - 1, 16));
        return wait.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : wait;
    }

    private WorkerClient newWorker() {
        try {
            return new WorkerClient(launcher.start(origin), origin, WorkerBounds.START);
        } catch (java.io.IOException | IllegalStateException e) {
            throw new WorkerFailedException("no worker could be started for " + origin + ": " + e.getMessage(), e);
        }
    }

    private Loaded load(WorkerClient client, boolean vet) {
        Wire.Out out = new Wire.Out().writeString(origin);
        out.writeValue(files);
        PolicyWire.write(out, policy);
        out.writeBoolean(vet);
        Frames.Frame answer = client.call(Frames.LOAD, out.toBytes(), WorkerBounds.load(policy.containment()),
                (vet ? "vetting " : "compiling ") + origin);
        Wire.In in = new Wire.In(answer.payload());
        try {
            if (answer.kind() == Frames.OK) {
                Loaded loaded = new Loaded(in.readStrings(), in.readStrings(), in.readInt());
                in.end();
                return loaded;
            }
            if (answer.kind() == Frames.REFUSED) {
                String summary = in.readText("a summary");
                String headline = in.readText("a headline");
                throw new BundleRefusedException(summary, headline, in.readStrings());
            }
            if (answer.kind() == Frames.ERROR) {
                throw new BundleRefusedException(origin + ": refused: its worker failed: " + in.readText("a message"));
            }
            throw new Wire.WireException("an answer of kind " + answer.kind() + " to a load");
        } catch (Wire.WireException e) {
            client.kill("its answer was malformed: " + e.getMessage());
            throw new WorkerFailedException("the worker of " + origin + " answered a load with a malformed message: "
                    + e.getMessage());
        }
    }

    /** Why the current worker died, or null while it lives (for tests and messages). */
    synchronized String death() {
        return worker == null ? lastDeath : worker.death();
    }

    /** A controller runs the bundle. */
    synchronized void hold() {
        holders++;
        everHeld = true;
    }

    /** A controller stopped running the bundle: the worker stops once no other holds it and no cycle runs on it. */
    synchronized void release() {
        if (holders > 0) holders--;
        stopIfReleased();
    }

    /** After a hold was released (a cycle that took the bundle just before it was replaced ends here). */
    private synchronized void stopIfReleased() {
        if (everHeld) stopIfUnused();
    }

    /** Stops the worker, not as a death, when nothing holds the bundle and no cycle runs on it. */
    private synchronized void stopIfUnused() {
        if (holders > 0 || inFlight.get() > 0 || worker == null) return;
        worker.kill("nothing runs its bundle any more");
        worker = null;
    }

    /** Kills the worker now, for good. */
    @Override
    public synchronized void close() {
        closed = true;
        if (worker != null) worker.kill("its bundle was closed");
    }
}
