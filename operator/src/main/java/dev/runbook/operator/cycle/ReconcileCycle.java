package dev.runbook.operator.cycle;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.decide.DecidingBundle;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.act.ActResult;
import dev.runbook.operator.act.Actor;
import dev.runbook.operator.act.AppliedAction;
import dev.runbook.operator.act.CachedObjects;
import dev.runbook.operator.act.InformerCaches;
import dev.runbook.operator.error.ActionFailedException;
import dev.runbook.operator.error.ErrorMapping;
import dev.runbook.operator.error.Failure;
import dev.runbook.operator.error.RepeatedServerErrors;
import dev.runbook.operator.error.TemporaryException;
import dev.runbook.operator.kube.EventWriter;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.operator.record.Recorder;
import dev.runbook.rules.action.EmitEvent;
import dev.runbook.rules.fact.Primary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One reconcile cycle of one primary, phase by phase: observe (facts from the informer caches),
 * decide and check (the engine), act (only a valid plan, only in enforce mode and not paused), record
 * (status, condition, events), and the requeue: the soonest one a rule asked for, else the bundle's
 * reconcile period; {@link #SETTLE_DELAY} after a cycle that changed an object. Each step is a method
 * that returns an immutable record ({@code Observed}, {@code Decided}, {@code Acted}, {@code Recorded})
 * handed explicitly to the steps after it; a failure is one of those results, not a variable the steps
 * share. The one thing the act and record steps both write to is the cycle's {@link CachedObjects}:
 * what record compares with must include what act wrote.
 *
 * <p>Errors are caught here and mapped in one place ({@link ErrorMapping}): a permanent failure is
 * recorded and the cycle ends normally, to run again at the period or on the next change; a temporary
 * one is recorded when possible and thrown as {@link TemporaryException}, for JOSDK to retry with
 * backoff. Nothing is kept between cycles: the objects a cycle wrote are read back from the informers
 * ({@link InformerCaches#written}).
 */
public final class ReconcileCycle {
    private static final Logger LOG = LoggerFactory.getLogger(ReconcileCycle.class);
    /** The soonest a primary is reconciled again, whatever a rule asks: a requeue of 0s would spin. */
    public static final Duration MIN_REQUEUE = Duration.ofSeconds(1);
    /**
     * After a cycle that changed an object, the next one comes this soon: to take the next step of a
     * procedure whose intent the cycle just recorded in status (a change of status alone starts no
     * cycle), or to confirm that nothing is left to change. Events do not count as changes.
     */
    public static final Duration SETTLE_DELAY = Duration.ofSeconds(1);

    /** Numbers the cycles of this process, for the logs. */
    private static final AtomicLong CYCLE_IDS = new AtomicLong();
    /**
     * Tells this process's cycle ids from another's (a restart, the other replica): a cycle's id names its
     * decision in the history and in the annotation of the event that announced its changes.
     */
    private static final String PROCESS = Long.toString(new java.security.SecureRandom().nextInt(36 * 36 * 36 * 36), 36);

    private final ActiveBundle active;
    private final Actor actor;
    private final Recorder recorder;
    private final Clock clock;
    private final CycleListener listener;
    private final Policy policy;
    private final RepeatedServerErrors serverErrors = new RepeatedServerErrors();

    public ReconcileCycle(ActiveBundle active, Actor actor, Recorder recorder, Clock clock, CycleListener listener) {
        this(active, actor, recorder, clock, listener, Policy.DEFAULT);
    }

    /** @param policy what the administrator lets each bundle touch; every plan is checked against it */
    public ReconcileCycle(ActiveBundle active, Actor actor, Recorder recorder, Clock clock, CycleListener listener,
                          Policy policy) {
        this.policy = policy;
        this.active = active;
        this.actor = actor;
        this.recorder = recorder;
        this.clock = clock;
        this.listener = listener;
    }

    /**
     * Runs the cycle.
     *
     * @param primary     the primary as cached, as nested maps
     * @param secondaries the cached objects of each secondary kind mapped to it
     * @return when to run again
     * @throws TemporaryException when the cycle should be retried with backoff
     */
    public Duration run(Map<String, Object> primary, List<List<Map<String, Object>>> secondaries) {
        return run(primary, secondaries, InformerCaches.NONE);
    }

    /** Runs the cycle; an object it did not observe is looked up in {@code informers} before the API server. */
    public Duration run(Map<String, Object> primary, List<List<Map<String, Object>>> secondaries, InformerCaches informers) {
        Observed observed = observe(primary, secondaries, informers);
        Decided decided = decide(observed);
        Acted acted = act(observed, decided);
        Recorded recorded = record(observed, decided, acted);
        return requeue(observed, decided, recorded);
    }

    /**
     * What the observe step saw: the cycle's id, the bundle it runs on (read once: the whole cycle runs
     * on it, whatever a reload does meanwhile), its time, the observation, and what the informers hold
     * (what the act and record steps compare with and write through, so that they send only differences).
     */
    private record Observed(String cycleId, DecidingBundle bundle, Instant now, Observation observation,
                            CachedObjects cached, long startedNanos) {
        Primary primary() { return observation.primary(); }
    }

    /** Why the cycle failed so far: the failure as classified, its cause, and the action that failed (null when none did). */
    private record Failed(Failure failure, Throwable cause, PlannedAction action) {
        static Failed of(RuntimeException error) {
            return new Failed(ErrorMapping.classify(error), error, null);
        }
    }

    /** The switches the cycle runs under, the decision (null when the rules came to none), and why it failed, if it did. */
    private record Decided(Switches switches, Decision decision, Failed failed) {}

    /** The actions applied with their outcomes, the status actions left to the record step, and why the cycle failed, if it did. */
    private record Acted(List<AppliedAction> applied, List<PlannedAction> statusActions, Failed failed) {}

    /** The report as recorded, why the cycle failed, and the error that kept the record from being written (null when it was). */
    private record Recorded(CycleReport report, Failed failed, RuntimeException unrecorded) {
        Recorded unrecorded(RuntimeException error) {
            return new Recorded(report, failed, error);
        }
    }

    private Observed observe(Map<String, Object> primary, List<List<Map<String, Object>>> secondaries, InformerCaches informers) {
        long started = System.nanoTime();
        ActiveBundle.Loaded loaded = active.current();
        Instant now = clock.instant();
        Observation observation = loaded.observer().observe(primary, secondaries, now);
        return new Observed(PROCESS + "-" + CYCLE_IDS.incrementAndGet(), loaded.bundle(), now, observation,
                CachedObjects.of(observation, informers), started);
    }

    private Decided decide(Observed observed) {
        BundleSpec spec = observed.bundle().spec();
        Switches switches = new Switches(spec.mode(), false);
        try {
            switches = Switches.of(observed.primary(), spec);
            listener.decisionStarted(observed.primary());
            Decision decision;
            try {
                decision = observed.bundle().decide(observed.observation(), policy);
            } finally {
                listener.decisionEnded();
            }
            return new Decided(switches, decision,
                    decision.isValid() ? null : new Failed(ErrorMapping.planRefused(decision), null, null));
        } catch (RuntimeException e) {
            return new Decided(switches, null, Failed.of(e));
        }
    }

    /** Applies only a valid plan, in enforce mode and not paused. */
    private Acted act(Observed observed, Decided decided) {
        if (decided.failed() != null || !decided.switches().acts()) return new Acted(List.of(), List.of(), decided.failed());
        try {
            ActResult result = actor.act(decided.decision().actions(), observed.primary(), observed.cached(), observed.now(),
                    Map.of(EventWriter.CYCLE_ANNOTATION, observed.cycleId()));
            Failed failed = result.isComplete() ? null : new Failed(serverErrors.judge(observed.primary().toString(),
                    result.failure(), ErrorMapping.classify(result.failure())), result.failure(), result.failed());
            return new Acted(result.applied(), result.primaryStatus(), failed);
        } catch (RuntimeException e) {
            return new Acted(List.of(), List.of(), Failed.of(e));
        }
    }

    /** Records the cycle on its primary, tells the listener (metrics count a cycle whose record failed too) and logs it. */
    private Recorded record(Observed observed, Decided decided, Acted acted) {
        if (acted.failed() == null) serverErrors.succeeded(observed.primary().toString());
        CycleReport report = report(observed, decided, acted.applied(), acted.failed(),
                Duration.ofNanos(System.nanoTime() - observed.startedNanos()));
        Recorded recorded = write(observed, decided, acted.statusActions(), new Recorded(report, acted.failed(), null));
        listener.cycleRecorded(observed.primary(), recorded.report());
        log(observed.primary(), recorded.report());
        return recorded;
    }

    /**
     * Writes the record. When the status write carried the plan's status actions on the primary and
     * failed, they failed, as any action can (a value the schema refuses, conflicts that did not end):
     * the cycle is recorded without them, naming them, and a temporary failure is retried as before.
     */
    private Recorded write(Observed observed, Decided decided, List<PlannedAction> statusActions, Recorded recorded) {
        try {
            recorder.record(observed.primary(), recorded.report(), observed.cached(), statusActions, observed.now());
            return recorded;
        } catch (RuntimeException e) {
            if (statusActions.isEmpty()) return recorded.unrecorded(e);
            ActionFailedException refused = statusFailed(statusActions, e);
            // An action that failed earlier stays the cycle's failure.
            Failed failed = recorded.failed() != null ? recorded.failed()
                    : new Failed(ErrorMapping.classify(refused), refused, statusActions.get(0));
            List<AppliedAction> written = recorded.report().applied().stream()
                    .filter(a -> !statusActions.contains(a.planned())).toList();
            Recorded withoutStatus = new Recorded(report(observed, decided, written, failed, recorded.report().took()), failed, null);
            try {
                recorder.record(observed.primary(), withoutStatus.report(), observed.cached(), List.of(), observed.now());
                return withoutStatus;
            } catch (RuntimeException again) {
                return withoutStatus.unrecorded(again);
            }
        }
    }

    private static CycleReport report(Observed observed, Decided decided, List<AppliedAction> applied, Failed failed,
                                      Duration took) {
        DecidingBundle bundle = observed.bundle();
        return new CycleReport(observed.cycleId(), bundle.name(), bundle.version(), decided.switches().mode(),
                decided.switches().paused(), decided.decision(), applied, failed == null ? null : failed.action(),
                failed == null ? null : failed.failure(), took, bundle.isolated());
    }

    /**
     * When to run again: the soonest requeue a rule asked for, else the period; {@link #SETTLE_DELAY}
     * after a change. A temporary failure, or a record that could not be written for a temporary reason,
     * is thrown for JOSDK to retry with backoff; a permanent failure waits for the period.
     */
    private Duration requeue(Observed observed, Decided decided, Recorded recorded) {
        Failed failed = recorded.failed();
        RuntimeException unrecorded = recorded.unrecorded();
        if (unrecorded != null) {
            if (failed == null || !failed.failure().isTemporary()) {
                Failure recording = ErrorMapping.classify(unrecorded);
                if (recording.isTemporary()) throw new TemporaryException(recording, unrecorded);
                throw unrecorded;
            }
            LOG.debug("{}: could not record the temporary failure: {}", observed.primary(), unrecorded.getMessage());
        }
        BundleSpec spec = observed.bundle().spec();
        if (failed != null) {
            if (failed.failure().isTemporary()) throw new TemporaryException(failed.failure(), failed.cause());
            return spec.reconcilePeriod();
        }
        Duration requeue = decided.decision().requeueAfter().orElse(spec.reconcilePeriod());
        if (changedSomething(recorded.report()) && SETTLE_DELAY.compareTo(requeue) < 0) requeue = SETTLE_DELAY;
        return requeue.compareTo(MIN_REQUEUE) < 0 ? MIN_REQUEUE : requeue;
    }

    private static ActionFailedException statusFailed(List<PlannedAction> statusActions, RuntimeException error) {
        List<String> rules = statusActions.stream().flatMap(p -> p.rules().stream()).distinct().toList();
        String actions = String.join("; ", statusActions.stream().map(p -> p.action().identity()).toList());
        return new ActionFailedException("the status write of " + actions, rules, error);
    }

    private static boolean changedSomething(CycleReport report) {
        return report.applied().stream().anyMatch(a -> a.changedSomething() && !(a.planned().action() instanceof EmitEvent));
    }

    /**
     * One line per cycle as {@code key=value} pairs, so that a log search can follow one primary, one
     * kind or one cycle: info when the cycle changed something, a warning when it failed, else debug.
     */
    private static void log(Primary primary, CycleReport report) {
        boolean changed = changedSomething(report);
        boolean failed = report.failure() != null;
        if (!failed && !changed && !LOG.isDebugEnabled()) return;
        String line = "cycle=" + report.cycleId()
                + " bundle=" + report.bundle() + " version=" + report.bundleVersion()
                + " kind=" + primary.getKind() + " namespace=" + primary.getNamespace() + " name=" + primary.getName()
                + " mode=" + report.modeName()
                + " fired=" + (report.decision() == null ? 0 : report.decision().firings().size())
                + " actions=" + report.applied().size() + " changed=" + changed
                + " took_ms=" + report.took().toMillis()
                + (failed ? " reason=" + report.failure().reason() + " error=\"" + report.failure().describe().replace("\"", "'") + "\"" : "");
        if (failed) LOG.warn(line);
        else if (changed) LOG.info(line);
        else LOG.debug(line);
    }
}
