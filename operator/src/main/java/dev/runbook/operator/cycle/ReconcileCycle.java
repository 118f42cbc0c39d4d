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
 * reconcile period; {@link #SETTLE_DELAY} after a cycle that changed an object.
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
        long started = System.nanoTime();
        String cycleId = PROCESS + "-" + CYCLE_IDS.incrementAndGet();
        // The one read of the active bundle: the whole cycle runs on it, whatever a reload does meanwhile.
        ActiveBundle.Loaded loaded = active.current();
        DecidingBundle bundle = loaded.bundle();
        Instant now = clock.instant();
        BundleSpec spec = bundle.spec();
        Observation observation = loaded.observer().observe(primary, secondaries, now);
        // What the informers hold, and what this cycle writes: the act and record phases send only differences.
        CachedObjects cached = CachedObjects.of(observation, informers);

        BundleSpec.Mode mode = spec.mode();
        boolean paused = false;
        Decision decision = null;
        List<AppliedAction> applied = List.of();
        List<PlannedAction> statusActions = List.of();
        PlannedAction failedAction = null;
        Failure failure = null;
        Throwable cause = null;
        try {
            Switches switches = Switches.of(observation.primary(), spec);
            mode = switches.mode();
            paused = switches.paused();
            listener.decisionStarted(observation.primary());
            try {
                decision = bundle.decide(observation, policy);
            } finally {
                listener.decisionEnded();
            }
            if (!decision.isValid()) {
                failure = ErrorMapping.planRefused(decision);
            } else if (switches.acts()) {
                ActResult result = actor.act(decision.actions(), observation.primary(), cached, now,
                        Map.of(dev.runbook.operator.kube.EventWriter.CYCLE_ANNOTATION, cycleId));
                applied = result.applied();
                statusActions = result.primaryStatus();
                if (!result.isComplete()) {
                    failedAction = result.failed();
                    failure = serverErrors.judge(observation.primary().toString(), result.failure(),
                            ErrorMapping.classify(result.failure()));
                    cause = result.failure();
                }
            }
        } catch (RuntimeException e) {
            failure = ErrorMapping.classify(e);
            cause = e;
        }

        if (failure == null) serverErrors.succeeded(observation.primary().toString());
        CycleReport report = new CycleReport(cycleId, bundle.name(), bundle.version(), mode, paused, decision, applied,
                failedAction, failure, Duration.ofNanos(System.nanoTime() - started), bundle.isolated());
        try {
            try {
                recorder.record(observation.primary(), report, cached, statusActions, now);
            } catch (RuntimeException e) {
                if (statusActions.isEmpty()) throw e;
                // The status write carried the plan's status actions on the primary: they failed, as any action
                // can (a value the schema refuses, conflicts that did not end); the cycle is recorded without
                // them, naming them, and a temporary failure is retried as before.
                ActionFailedException refused = statusFailed(statusActions, e);
                if (failure == null) { // an action that failed earlier stays the cycle's failure
                    failedAction = statusActions.get(0);
                    failure = ErrorMapping.classify(refused);
                    cause = refused;
                }
                List<PlannedAction> notWritten = statusActions;
                report = new CycleReport(cycleId, bundle.name(), bundle.version(), mode, paused, decision,
                        applied.stream().filter(a -> !notWritten.contains(a.planned())).toList(), failedAction, failure,
                        report.took(), bundle.isolated());
                recorder.record(observation.primary(), report, cached, List.of(), now);
            }
        } catch (RuntimeException e) {
            if (failure == null || !failure.isTemporary()) {
                Failure recording = ErrorMapping.classify(e);
                if (recording.isTemporary()) throw new TemporaryException(recording, e);
                throw e;
            }
            LOG.debug("{}: could not record the temporary failure: {}", observation.primary(), e.getMessage());
        } finally {
            // Told even when the record phase failed: the cycle ran, and metrics must count it.
            listener.cycleRecorded(observation.primary(), report);
            log(observation.primary(), report);
        }
        if (failure != null) {
            if (failure.isTemporary()) throw new TemporaryException(failure, cause);
            return spec.reconcilePeriod();
        }
        Duration requeue = decision.requeueAfter().orElse(spec.reconcilePeriod());
        if (changedSomething(report) && SETTLE_DELAY.compareTo(requeue) < 0) requeue = SETTLE_DELAY;
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
