package dev.runbook.testkit.explore;

import dev.runbook.testkit.scenario.WorldChange;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/** Replays given steps: their time and their world changes, as they were drawn (or shrunk). */
final class ReplaySource implements Trial.Source {
    private final List<StepPlan> plans;
    private final Deque<WorldChange> pending = new ArrayDeque<>();

    ReplaySource(List<StepPlan> plans) {
        this.plans = List.copyOf(plans);
    }

    @Override
    public Trial.Start begin(int step, World world) {
        if (step > plans.size()) return null;
        StepPlan plan = plans.get(step - 1);
        pending.clear();
        pending.addAll(plan.changes());
        return new Trial.Start(plan.advance(), List.of(plan.name()));
    }

    @Override
    public Optional<Drawn> next(World world) {
        WorldChange change = pending.poll();
        return change == null ? Optional.empty() : Optional.of(Drawn.of("", change));
    }
}
