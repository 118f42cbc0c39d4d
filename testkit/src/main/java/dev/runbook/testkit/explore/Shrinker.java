package dev.runbook.testkit.explore;

import dev.runbook.testkit.scenario.WorldChange;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Shrinks a failing run to a minimal one that fails the same way (the same invariant, or the same
 * sort of failure): delta debugging over the steps (ddmin: remove halves, quarters, ... down to
 * single steps, as long as the failure stays), then each remaining step is simplified — each world
 * change left out, the time it lets pass cut to none — and the steps are tried once more. Every
 * candidate is replayed from the start state; the order of tries is fixed, so the result is too.
 */
final class Shrinker {
    private final Function<List<StepPlan>, Trial.Result> replay;
    private final Finding target;
    private int replays;

    Shrinker(Function<List<StepPlan>, Trial.Result> replay, Finding target) {
        this.replay = replay;
        this.target = target;
    }

    /** The smallest failing plans found and the replay of them. */
    Trial.Result shrink(List<StepPlan> failing) {
        List<StepPlan> plans = ddmin(failing);
        plans = simplify(plans);
        plans = ddmin(plans);
        Trial.Result result = replay.apply(plans);
        replays++;
        return result;
    }

    int replays() { return replays; }

    private boolean fails(List<StepPlan> plans) {
        replays++;
        Trial.Result result = replay.apply(plans);
        return result.replayable() && target.sameFailure(result.finding());
    }

    private List<StepPlan> ddmin(List<StepPlan> plans) {
        List<StepPlan> current = new ArrayList<>(plans);
        int chunks = 2;
        while (current.size() >= 1) {
            int size = current.size();
            int chunk = (int) Math.ceil(size / (double) Math.min(chunks, size));
            boolean reduced = false;
            for (int start = 0; start < size; start += chunk) {
                List<StepPlan> without = new ArrayList<>(current.subList(0, start));
                without.addAll(current.subList(Math.min(size, start + chunk), size));
                if (fails(without)) {
                    current = without;
                    chunks = Math.max(chunks - 1, 2);
                    reduced = true;
                    break;
                }
            }
            if (!reduced) {
                if (chunk == 1) break;
                chunks = Math.min(chunks * 2, size);
            }
        }
        return current;
    }

    private List<StepPlan> simplify(List<StepPlan> plans) {
        List<StepPlan> current = new ArrayList<>(plans);
        for (int i = 0; i < current.size(); i++) {
            for (int c = current.get(i).changes().size() - 1; c >= 0; c--) {
                StepPlan step = current.get(i);
                List<WorldChange> fewer = new ArrayList<>(step.changes());
                fewer.remove(c);
                List<StepPlan> candidate = with(current, i, new StepPlan(ScenarioWriter.describe(fewer), step.advance(), fewer));
                if (fails(candidate)) current = candidate;
            }
            StepPlan step = current.get(i);
            if (!step.advance().isZero()) {
                List<StepPlan> candidate = with(current, i, new StepPlan(step.name(), Duration.ZERO, step.changes()));
                if (fails(candidate)) current = candidate;
            }
        }
        return current;
    }

    private static List<StepPlan> with(List<StepPlan> plans, int index, StepPlan step) {
        List<StepPlan> copy = new ArrayList<>(plans);
        copy.set(index, step);
        return copy;
    }
}
