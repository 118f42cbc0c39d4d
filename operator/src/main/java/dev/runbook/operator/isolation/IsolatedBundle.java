package dev.runbook.operator.isolation;

import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.BundleSpecParser;
import dev.runbook.engine.check.PlanChecker;
import dev.runbook.engine.check.PlanProblem;
import dev.runbook.engine.decide.CleanupDeadline;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.DecidingBundle;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.engine.policy.ExplicitNamespace;
import dev.runbook.engine.policy.Policy;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import dev.runbook.operator.controller.BundleRefusedException;
import dev.runbook.operator.error.Failure;
import dev.runbook.operator.error.Reasons;
import dev.runbook.operator.error.TemporaryException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A bundle whose rules run in a worker process (docs/security.md, "The process boundary"). The operator
 * holds what it read itself: the bundle's files, its spec and its version. The worker holds the compiled
 * rules; it gets the facts of a cycle and answers with a decision, whose every action the operator then
 * checks against the administrator's policy here, in its own process, whatever the worker found.
 *
 * <p>A worker that dies or is killed fails the cycles it was deciding (temporarily: they are retried);
 * the next cycle starts a new worker, which compiles the bundle again, unless the last start failed
 * within its backoff ({@link WorkerRestarts}).
 */
public final class IsolatedBundle implements DecidingBundle, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(IsolatedBundle.class);

    private final BundleSource source;
    private final BundleSpec spec;
    private final String version;
    private final List<String> ruleNames;
    private final int scenarios;
    private final WorkerSession session;

    private IsolatedBundle(BundleSource source, BundleSpec spec, List<String> ruleNames, int scenarios, WorkerSession session) {
        this.source = source;
        this.spec = spec;
        this.version = source.contentHash();
        this.ruleNames = List.copyOf(ruleNames);
        this.scenarios = scenarios;
        this.session = session;
    }

    /**
     * Compiles the bundle in a new worker and, when {@code vet}, runs its scenarios there under
     * {@code policy}; the worker then decides its cycles. Its bundle.yaml is read here, by the operator.
     *
     * @param source what it compiles, as the operator read it (its version is this content's hash)
     * @param files  every file the worker gets, by path in the bundle: {@code source}'s, and to vet it
     *               its scenarios, samples and invariants
     * @throws InvalidInputException  when its bundle.yaml is missing or not valid
     * @throws BundleRefusedException when it does not compile, a scenario fails, or the worker was
     *                                stopped (it ran past its bound, it died)
     */
    public static IsolatedBundle load(BundleSource source, Map<String, String> files, Policy policy, WorkerLauncher launcher,
                                      boolean vet) {
        String yaml = source.file(BundleSpecParser.FILE);
        if (yaml == null) {
            throw new InvalidInputException(Problem.inFile(BundleSpecParser.FILE, "missing: a bundle needs a bundle.yaml"));
        }
        BundleSpec spec = BundleSpecParser.parse(yaml);
        WorkerSession session = new WorkerSession(source.origin(), files, policy, launcher);
        try {
            WorkerSession.Loaded loaded = session.start(vet);
            return new IsolatedBundle(source, spec, loaded.ruleNames(), loaded.scenarios(), session);
        } catch (WorkerFailedException e) {
            session.close();
            throw new BundleRefusedException(source.origin() + ": refused: " + (vet ? "its vetting" : "its compile")
                    + " in a worker process was stopped: " + e.getMessage());
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }

    @Override public BundleSpec spec() { return spec; }

    @Override public BundleSource source() { return source; }

    @Override public String version() { return version; }

    @Override public List<String> ruleNames() { return ruleNames; }

    @Override public boolean isolated() { return true; }

    /** How many scenarios passed in the worker when it was vetted (0 when it was only compiled). */
    public int scenarios() { return scenarios; }

    @Override
    public Decision decide(Observation observation, Policy policy) {
        // Past the cleanup deadline the rules no longer decide, so no worker, dead or alive, can hold a deletion up.
        var overdue = CleanupDeadline.overduePlan(spec, observation.primary(), observation.now());
        if (overdue.isPresent()) {
            return new Decision(name(), version, observation.now(), List.of(), overdue.get(),
                    PlanChecker.check(overdue.get(), spec, observation.primary(), policy));
        }
        Decision decided;
        try {
            decided = session.decide(observation, spec, version);
        } catch (WorkerFailedException e) {
            LOG.warn("bundle {}: {}", this, e.getMessage());
            throw new TemporaryException(new Failure(Failure.Kind.TEMPORARY, Reasons.WORKER_STOPPED,
                    "bundle " + this + ": " + e.getMessage() + "; a new worker takes over at the next cycle", List.of()), e);
        }
        return checked(decided, observation, policy);
    }

    /** The worker's plan, checked here: each action in an explicit namespace, the plan against the policy. */
    private Decision checked(Decision decided, Observation observation, Policy policy) {
        String namespace = observation.primary().getNamespace();
        List<PlannedAction> actions = new ArrayList<>(decided.actions().size());
        for (PlannedAction planned : decided.actions()) {
            actions.add(new PlannedAction(ExplicitNamespace.of(planned.action(), namespace), planned.rules()));
        }
        List<PlanProblem> problems = new ArrayList<>(decided.problems());
        problems.addAll(PlanChecker.check(actions, spec, observation.primary(), policy));
        return new Decision(name(), version, observation.now(), decided.firings(), actions, problems);
    }

    /** Why its worker died, or null while it lives. */
    String workerDeath() { return session.death(); }

    @Override
    public void hold() { session.hold(); }

    /** Its worker stops once no controller holds it and the cycles running on it have finished. */
    @Override
    public void release() { session.release(); }

    /** Kills its worker now, for good: for a bundle that will never decide. */
    @Override
    public void close() {
        session.close();
    }

    @Override
    public String toString() { return spec.name() + "@" + version; }
}
