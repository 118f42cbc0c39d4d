package dev.runbook.testkit.scenario;

import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.containment.ContainedRun;
import dev.runbook.engine.containment.RuleContainmentException;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.decide.FiringLimitExceededException;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.engine.decide.RuleFailedException;
import dev.runbook.testkit.invariant.Invariants;
import dev.runbook.engine.policy.Policy;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.apply.Outcome;
import dev.runbook.testkit.simulation.Finalizers;
import dev.runbook.testkit.simulation.Simulator;
import dev.runbook.engine.state.ObservationBuilder;
import dev.runbook.engine.state.ObservedObject;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.fact.ObjectRef;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Runs one scenario on a simulated cluster: loads its state, runs a cycle (or one per drill step,
 * changing the world and advancing time in between), applies each valid plan, checks the
 * expectations, and finally checks idempotence — one more cycle over the resulting state must change
 * nothing.
 */
public final class ScenarioRunner {
    private final java.time.Clock stopwatch;
    private final Invariants invariants;
    private final Policy policy;

    /**
     * @param stopwatch  measures how long a scenario took, for reports only
     * @param invariants checked after every cycle of every scenario (the bundle's {@code invariants/})
     * @param policy     the operator's policy the plans are checked against, as the operator will, the
     *                   scenario's primary's namespace standing for one it grants ({@link Policy#forScenarios()})
     */
    public ScenarioRunner(java.time.Clock stopwatch, Invariants invariants, Policy policy) {
        this.stopwatch = stopwatch;
        this.invariants = invariants;
        this.policy = policy.forScenarios();
    }

    /**
     * @param stopwatch  measures how long a scenario took, for reports only
     * @param invariants checked after every cycle of every scenario (the bundle's {@code invariants/})
     */
    public ScenarioRunner(java.time.Clock stopwatch, Invariants invariants) {
        this(stopwatch, invariants, Policy.DEFAULT);
    }

    /** A runner that checks the given invariants after every cycle. */
    public ScenarioRunner(Invariants invariants) {
        this(java.time.Clock.systemUTC(), invariants);
    }

    /** @param stopwatch measures how long a scenario took, for reports only */
    public ScenarioRunner(java.time.Clock stopwatch) {
        this(stopwatch, Invariants.NONE);
    }

    public ScenarioRunner() {
        this(java.time.Clock.systemUTC());
    }

    public ScenarioResult run(CompiledBundle bundle, Scenario scenario) {
        long start = stopwatch.millis();
        Set<String> fired = new LinkedHashSet<>();
        List<String> failures = new ArrayList<>();
        try {
            Simulator simulator = new Simulator(scenario.now());
            for (ObservedObject object : scenario.state()) {
                try {
                    simulator.create(object.object());
                } catch (IllegalStateException e) {
                    failures.add(ExpectationCheck.at(object.file(), object.line(), "state: " + e.getMessage()));
                }
            }
            if (failures.isEmpty() && bundle.spec().hasCleanup()) {
                // As the operator does before a primary's first cycle: its finalizer holds it for the cleanup rules.
                ref(bundle, scenario, simulator).ifPresent(primary -> Finalizers.add(simulator, primary, bundle.spec().finalizer()));
            }
            if (failures.isEmpty()) {
                // Every cycle of the scenario ends by the scenario's deadline too.
                ContainedRun.scenario(policy.containment(), () -> {
                    Cycle last = scenario.isDrill()
                            ? drill(bundle, scenario, simulator, fired, failures)
                            : cycle(bundle, scenario, simulator, scenario.expect(), "", scenario.line(), fired, failures);
                    if (failures.isEmpty() && scenario.idempotenceSkipped() == null && last.decision().isValid()
                            && !last.primaryGone()) {
                        idempotence(bundle, scenario, simulator, fired, failures);
                    }
                    return last;
                });
            }
        } catch (InvalidInputException e) {
            e.getProblems().forEach(p -> failures.add(p.toString()));
        } catch (RuleContainmentException e) {
            throw e; // code that ran away is not a failed expectation: `runbook test` exits 2, vetting refuses
        } catch (FiringLimitExceededException | RuleFailedException e) {
            failures.add(scenario.file() + ": " + e.getMessage());
        } catch (IllegalArgumentException | IllegalStateException e) {
            failures.add(scenario.file() + ": " + e.getMessage());
        }
        return new ScenarioResult(scenario, failures, fired, Duration.ofMillis(stopwatch.millis() - start));
    }

    private record Cycle(Decision decision, List<Outcome> outcomes, boolean primaryGone) {}

    private Cycle drill(CompiledBundle bundle, Scenario scenario, Simulator simulator, Set<String> fired, List<String> failures) {
        Cycle last = null;
        for (int i = 0; i < scenario.steps().size(); i++) {
            Step step = scenario.steps().get(i);
            simulator.advance(step.advance());
            if (!step.changes().isEmpty()) {
                // The primary's namespace, read once per step: finding it builds a whole observation.
                String namespace = namespace(bundle, scenario, simulator);
                for (WorldChange change : step.changes()) {
                    WorldChanges.apply(change, simulator, namespace, scenario.file());
                }
            }
            simulator.settle();
            if (last != null && last.primaryGone()) {
                failures.add(ExpectationCheck.at(scenario.file(), step.line(), "step " + (i + 1) + " (" + step.name()
                        + "): the primary is gone since the previous step; a drill ends with the step whose cleanup releases it"));
                break;
            }
            last = cycle(bundle, scenario, simulator, step.expect(), "step " + (i + 1) + " (" + step.name() + "): ", step.line(), fired, failures);
            if (!failures.isEmpty()) break;
        }
        return last;
    }

    private Cycle cycle(CompiledBundle bundle, Scenario scenario, Simulator simulator, Expectation expect, String label, int line,
                        Set<String> fired, List<String> failures) {
        Observation observation = observe(bundle, scenario, simulator);
        Decision decision = DecisionCycle.run(bundle, observation, policy);
        fired.addAll(decision.firedRules());
        CheckedApply.Result applied = CheckedApply.apply(invariants, bundle, simulator, decision,
                () -> observe(bundle, scenario, simulator));
        List<Outcome> outcomes = applied.outcomes();
        applied.violations().forEach(v -> failures.add(label + ExpectationCheck.at(scenario.file(), line, v.toString())));
        Optional<Map<String, Object>> after = simulator.get(observation.primary().getRef());
        Map<String, Object> primary = after.orElse(Map.of());
        Map<String, Object> status = primary.get("status") instanceof Map<?, ?> s ? cast(s) : Map.of();
        List<Object> conditions = status.get("conditions") instanceof List<?> c ? new ArrayList<>(c) : List.of();
        for (String failure : ExpectationCheck.check(scenario.file(), expect, decision, status, conditions)) {
            failures.add(label + failure);
        }
        if (expect.primaryGone() != null && expect.primaryGone().value() == after.isPresent()) {
            failures.add(label + ExpectationCheck.at(scenario.file(), expect.primaryGone().line(), "expected the primary to be "
                    + (expect.primaryGone().value() ? "gone" : "still there") + " after the plan was applied, but it is "
                    + (after.isPresent() ? "there" + finalizers(after.get()) : "gone")));
        }
        return new Cycle(decision, outcomes, after.isEmpty());
    }

    private static String finalizers(Map<String, Object> primary) {
        Object finalizers = primary.get("metadata") instanceof Map<?, ?> m ? m.get("finalizers") : null;
        return finalizers == null ? "" : " (finalizers " + finalizers + ")";
    }

    private static Optional<ObjectRef> ref(CompiledBundle bundle, Scenario scenario, Simulator simulator) {
        try {
            return Optional.of(observe(bundle, scenario, simulator).primary().getRef());
        } catch (InvalidInputException e) {
            return Optional.empty(); // reported by the first cycle, with the file and the fix
        }
    }

    private void idempotence(CompiledBundle bundle, Scenario scenario, Simulator simulator, Set<String> fired, List<String> failures) {
        Decision again = DecisionCycle.run(bundle, observe(bundle, scenario, simulator), policy);
        fired.addAll(again.firedRules());
        List<PlannedAction> actions = again.applicableActions();
        CheckedApply.Result applied = CheckedApply.apply(invariants, bundle, simulator, again,
                () -> observe(bundle, scenario, simulator));
        List<Outcome> outcomes = applied.outcomes();
        applied.violations().forEach(v -> failures.add(ExpectationCheck.at(scenario.file(), scenario.line(),
                "idempotence cycle: " + v)));
        List<String> changed = new ArrayList<>();
        for (int i = 0; i < actions.size(); i++) {
            if (outcomes.get(i) != Outcome.NONE) {
                Action action = actions.get(i).action();
                changed.add("- " + outcomes.get(i) + " " + ExpectationCheck.flow(action.toMap()) + " by " + actions.get(i).rules());
            }
        }
        if (!again.isValid()) {
            changed.add("- the plan was refused: " + again.problems());
        }
        if (!changed.isEmpty()) {
            failures.add(ExpectationCheck.at(scenario.file(), scenario.line(), "not idempotent: one more cycle over the resulting "
                    + "state still changes something\n" + ExpectationCheck.indent(String.join("\n", changed))
                    + "\n(a multi-cycle procedure may opt out with idempotence: {skip: REASON})"));
        }
    }

    private static Observation observe(CompiledBundle bundle, Scenario scenario, Simulator simulator) {
        List<ObservedObject> objects = simulator.cluster().list().stream()
                .map(o -> new ObservedObject(o, scenario.file(), scenario.line())).toList();
        return ObservationBuilder.build(bundle.spec(), objects, scenario.primaryName(), simulator.now(), scenario.params());
    }

    private static String namespace(CompiledBundle bundle, Scenario scenario, Simulator simulator) {
        return observe(bundle, scenario, simulator).primary().getNamespace();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }

    /** For messages and world changes: the reference of an object named in a scenario. */
    static ObjectRef ref(String kind, String namespace, String name) {
        return Simulator.ref(kind, namespace, name);
    }
}
