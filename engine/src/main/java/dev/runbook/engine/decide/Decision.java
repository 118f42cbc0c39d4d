package dev.runbook.engine.decide;

import dev.runbook.engine.check.PlanProblem;
import dev.runbook.rules.action.Requeue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The outcome of one cycle: the trace, the planned actions and what the plan check found. A plan
 * with problems is not valid, and nothing in it may be applied.
 */
public record Decision(
        String bundle,
        String bundleVersion,
        Instant now,
        List<Firing> firings,
        List<PlannedAction> actions,
        List<PlanProblem> problems) {

    public Decision {
        firings = List.copyOf(firings);
        actions = List.copyOf(actions);
        problems = List.copyOf(problems);
    }

    public boolean isValid() { return problems.isEmpty(); }

    /** The actions to apply: all of them when the plan is valid, none otherwise. */
    public List<PlannedAction> applicableActions() { return isValid() ? actions : List.of(); }

    /** The rule names that fired, in order, with repeats. */
    public List<String> firedRules() { return firings.stream().map(Firing::rule).toList(); }

    /** The soonest requested requeue, if any rule asked for one. */
    public Optional<Duration> requeueAfter() {
        return actions.stream()
                .map(PlannedAction::action)
                .filter(Requeue.class::isInstance)
                .map(a -> ((Requeue) a).getAfter())
                .min(Duration::compareTo);
    }
}
