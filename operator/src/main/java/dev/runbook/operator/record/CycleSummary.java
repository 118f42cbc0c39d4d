package dev.runbook.operator.record;

import dev.runbook.engine.check.PlanProblem;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.operator.act.AppliedAction;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The short summary of a cycle that the operator keeps in {@code status.lastCycle}: the bundle,
 * the mode, the rules that fired (each once, in the order they first fired), and each planned action
 * with what became of it. It holds no time, so a cycle that does the same as the one before writes
 * nothing; and a cycle that found everything in place after one that applied the plan does not replace
 * it ({@link Recorder}), so it is the last cycle that changed something, failed, was refused or only
 * planned.
 *
 * <p>Outcomes: {@code CREATED}, {@code UPDATED}, {@code DELETED}, {@code NONE} when applied;
 * {@code PLANNED} in observe mode or while paused; {@code REFUSED} when the plan check refused the
 * plan; {@code FAILED} for the action that failed and {@code SKIPPED} for those after it.
 */
public final class CycleSummary {
    /** Lists longer than this are cut, with a last entry saying how many more there were. */
    public static final int MAX_ENTRIES = 20;

    private CycleSummary() {}

    public static Map<String, Object> of(CycleReport report) {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("bundle", report.bundle());
        summary.put("mode", report.modeName());
        if (report.decision() == null) return summary;

        Set<String> fired = new LinkedHashSet<>(report.decision().firedRules());
        summary.put("fired", cut(new ArrayList<>(fired)));

        List<Object> actions = new ArrayList<>();
        outcomes(report).forEach((planned, outcome) -> {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("action", planned.action().identity());
            entry.put("outcome", outcome);
            actions.add(entry);
        });
        summary.put("actions", cut(actions));
        if (!report.decision().isValid()) {
            summary.put("problems", cut(report.decision().problems().stream().map(PlanProblem::toString)
                    .map(Object.class::cast).toList()));
        }
        return summary;
    }

    /** What became of each action of the cycle's plan, in the plan's order (the outcomes above); empty without a decision. */
    public static Map<PlannedAction, String> outcomes(CycleReport report) {
        Map<PlannedAction, String> outcomes = new LinkedHashMap<>();
        if (report.decision() == null) return outcomes;
        Map<PlannedAction, String> known = new LinkedHashMap<>();
        for (AppliedAction applied : report.applied()) known.put(applied.planned(), applied.outcome().name());
        if (report.failedAction() != null) known.put(report.failedAction(), "FAILED");
        String otherwise = !report.decision().isValid() ? "REFUSED" : report.acting() ? "SKIPPED" : "PLANNED";
        for (PlannedAction planned : report.decision().actions()) outcomes.put(planned, known.getOrDefault(planned, otherwise));
        return outcomes;
    }

    private static List<Object> cut(List<?> items) {
        List<Object> result = new ArrayList<>(items.subList(0, Math.min(items.size(), MAX_ENTRIES)));
        if (items.size() > MAX_ENTRIES) result.add("... and " + (items.size() - MAX_ENTRIES) + " more");
        return result;
    }
}
