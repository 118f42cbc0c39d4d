package dev.runbook.testkit.invariant;

import dev.runbook.engine.files.BundleFiles;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import dev.runbook.rules.fact.Clock;
import dev.runbook.rules.fact.Params;
import dev.runbook.rules.fact.Resource;
import dev.runbook.rules.invariant.AppliedAction;
import dev.runbook.rules.invariant.Violation;
import org.kie.api.KieBase;
import org.kie.api.event.rule.DefaultAgendaEventListener;
import org.kie.api.event.rule.ObjectDeletedEvent;
import org.kie.api.event.rule.ObjectInsertedEvent;
import org.kie.api.event.rule.ObjectUpdatedEvent;
import org.kie.api.event.rule.RuleRuntimeEventListener;
import org.kie.api.runtime.KieSession;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A bundle's invariants: the rules under {@code invariants/*.drl}, compiled on their own. After each
 * cycle's plan is applied, {@link #check} runs them in a fresh session over what is observed then
 * (the primary, its secondaries, the clock, the parameters) and the cycle's {@link AppliedAction}s;
 * each {@link Violation} they insert is reported with the rule that inserted it. The session is
 * separate from the decision, so an invariant can never change what the rules decide.
 *
 * <p>Invariants are not part of the bundle's compiled form: changing one does not change the
 * bundle's version, and the operator never runs them. They belong to testing, like {@code tests/}.
 */
public final class Invariants {
    public static final String DIRECTORY = "invariants";
    /** A bundle without invariants: nothing is checked. */
    public static final Invariants NONE = new Invariants(null, List.of());

    private final KieBase kieBase;
    private final List<String> names;

    private Invariants(KieBase kieBase, List<String> names) {
        this.kieBase = kieBase;
        this.names = List.copyOf(names);
    }

    /**
     * Reads and compiles {@code invariants/*.drl} of a bundle directory; {@link #NONE} when there is none.
     *
     * @throws InvalidInputException with every DRL problem as {@code invariants/FILE:line:col: message}
     */
    public static Invariants load(Path bundle) {
        return of(BundleFiles.on(bundle));
    }

    /**
     * Compiles {@code invariants/*.drl} of a bundle's files; {@link #NONE} when there is none.
     *
     * @throws InvalidInputException with every DRL problem as {@code invariants/FILE:line:col: message}
     */
    public static Invariants of(BundleFiles files) {
        Map<String, String> drl = new TreeMap<>();
        for (String path : files.under(DIRECTORY, ".drl")) drl.put(path, files.read(path, "an invariants file"));
        return compile(drl);
    }

    /** Compiles invariant DRL files given by path. */
    public static Invariants compile(Map<String, String> drl) {
        if (drl.isEmpty()) return NONE;
        List<Problem> errors = new ArrayList<>();
        KieBase kieBase = BundleCompiler.knowledgeBase(drl, errors, new ArrayList<>());
        if (kieBase == null) {
            throw new InvalidInputException(BundleCompiler.ordered(errors));
        }
        List<String> names = new ArrayList<>();
        kieBase.getKiePackages().forEach(p -> p.getRules().forEach(r -> names.add(r.getName())));
        names.sort(null);
        return new Invariants(kieBase, names);
    }

    /** The invariant rules' names, in name order. */
    public List<String> names() { return names; }

    public boolean isEmpty() { return kieBase == null; }

    /**
     * Runs the invariants over what is observed after a cycle and the cycle's actions.
     *
     * @return the violations, in the order they were inserted; empty when every invariant holds
     */
    public List<InvariantViolation> check(Observation after, Params params, List<AppliedAction> actions) {
        if (kieBase == null) return List.of();
        ViolationRecorder recorder = new ViolationRecorder();
        KieSession session = kieBase.newKieSession();
        try {
            session.addEventListener((org.kie.api.event.rule.AgendaEventListener) recorder);
            session.addEventListener((RuleRuntimeEventListener) recorder);
            session.insert(new Clock(after.now()));
            session.insert(params);
            session.insert(after.primary());
            after.secondaries().stream().sorted(Comparator.comparing(Resource::getRef)).forEach(session::insert);
            actions.forEach(session::insert);
            session.fireAllRules(FIRING_LIMIT);
        } finally {
            session.dispose();
        }
        return recorder.violations;
    }

    /** Invariants only read; a session that fires this often is a mistake in one of them. */
    private static final int FIRING_LIMIT = 10_000;

    /** Records each Violation inserted with the rule that inserted it. */
    private static final class ViolationRecorder extends DefaultAgendaEventListener implements RuleRuntimeEventListener {
        private final List<InvariantViolation> violations = new ArrayList<>();

        @Override
        public void objectInserted(ObjectInsertedEvent event) {
            if (event.getObject() instanceof Violation v) {
                String rule = event.getRule() == null ? "(unknown invariant)" : event.getRule().getName();
                violations.add(new InvariantViolation(rule, v.getMessage()));
            }
        }

        @Override public void objectUpdated(ObjectUpdatedEvent event) {}
        @Override public void objectDeleted(ObjectDeletedEvent event) {}
    }
}
