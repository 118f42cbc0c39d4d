package dev.runbook.testkit.scenario;

import dev.runbook.engine.bundle.ParameterValues;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.engine.apply.Outcome;
import dev.runbook.testkit.invariant.InvariantViolation;
import dev.runbook.testkit.invariant.Invariants;
import dev.runbook.testkit.simulation.Simulator;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.FinishCleanup;
import dev.runbook.rules.fact.Resource;
import dev.runbook.rules.invariant.AppliedAction;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Applies a decision's plan to the simulated cluster and then checks the bundle's invariants over
 * the result: the one place where the scenario kit and the explorer do both, so that they check the
 * same thing the same way.
 */
public final class CheckedApply {
    /** What applying the plan did, and the invariants that no longer hold. */
    public record Result(List<Outcome> outcomes, List<InvariantViolation> violations) {}

    private CheckedApply() {}

    /**
     * @param observeAfter observes the cluster once the plan is applied (the same way the cycle observed it)
     */
    public static Result apply(Invariants invariants, CompiledBundle bundle, Simulator simulator, Decision decision,
                               Supplier<Observation> observeAfter) {
        List<PlannedAction> planned = decision.applicableActions();
        List<Action> plan = planned.stream().map(PlannedAction::action).toList();
        List<Resource> before = invariants.isEmpty() ? List.of() : before(simulator, plan);
        List<Outcome> outcomes = simulator.applyPlan(plan);
        if (invariants.isEmpty() || primaryReleased(simulator, plan)) {
            // A released primary is gone, and with it what the invariants are about: nothing to check.
            return new Result(outcomes, List.of());
        }
        List<AppliedAction> applied = new ArrayList<>();
        for (int i = 0; i < outcomes.size(); i++) {
            applied.add(new AppliedAction(plan.get(i), planned.get(i).rules(), outcomes.get(i).name(), before.get(i)));
        }
        Observation after = observeAfter.get();
        return new Result(outcomes, invariants.check(after,
                ParameterValues.resolve(bundle.spec(), after.parameterOverrides()), applied));
    }

    private static boolean primaryReleased(Simulator simulator, List<Action> plan) {
        return plan.stream().anyMatch(a -> a instanceof FinishCleanup && simulator.get(a.getTarget()).isEmpty());
    }

    /** Each action's target as it is before the plan is applied, or null. */
    private static List<Resource> before(Simulator simulator, List<Action> plan) {
        List<Resource> before = new ArrayList<>();
        for (Action action : plan) {
            before.add(action.getTarget() == null ? null
                    : simulator.get(action.getTarget()).map(o -> (Resource) new Resource(o)).orElse(null));
        }
        return before;
    }
}
