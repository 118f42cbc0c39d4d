package dev.runbook.operator.history;

import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.engine.plan.PlanYaml;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.operator.record.CycleSummary;
import dev.runbook.rules.fact.Primary;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One cycle's decision as the history keeps it: what {@code runbook plan} prints for a decision (the
 * rules that fired, the facts they matched and derived, the actions, the problems), plus what the cycle
 * did with it: the cycle's id (the one in the log line and in the annotation {@value #EVENT_ANNOTATION}
 * of the event that announced its changes), the mode, the outcome, each action's outcome, and the failure.
 *
 * <p>Two things keep it small and keep secrets out: an action that changed nothing is kept as its
 * identity and outcome, not its whole object (an unchanged StatefulSet is kilobytes, and the cycle that
 * last changed it has it); and the {@code data} and {@code stringData} of an action on a Secret are
 * replaced by their sizes.
 */
public final class DecisionRecord {
    /** The annotation on a changes event naming the cycle whose decision it announced. */
    public static final String EVENT_ANNOTATION = dev.runbook.operator.kube.EventWriter.CYCLE_ANNOTATION;
    private static final Set<String> CHANGED = Set.of("CREATED", "UPDATED", "DELETED", "FAILED", "PLANNED", "REFUSED");
    private static final Set<String> SECRET_FIELDS = Set.of("data", "stringData");

    private DecisionRecord() {}

    /** The record of a cycle, as maps and lists of plain values (for JSON). */
    public static Map<String, Object> of(Primary primary, CycleReport report) {
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("cycle", report.cycleId());
        record.put("primary", primary.toString());
        record.put("mode", report.modeName());
        record.put("outcome", outcome(report));
        record.put("took", report.took().toMillis() + "ms");
        if (report.failure() != null) {
            Map<String, Object> failure = new LinkedHashMap<>();
            failure.put("reason", report.failure().reason());
            failure.put("message", report.failure().describe());
            record.put("failure", failure);
        }
        if (report.decision() == null) {
            record.put("bundle", report.bundle() + "@" + report.bundleVersion());
            return record;
        }
        Map<String, Object> plan = PlanYaml.toMap(report.decision(), primary.toString());
        plan.remove("primary");
        String key = report.decision().isValid() ? "actions" : "refusedActions";
        List<Object> actions = new ArrayList<>();
        CycleSummary.outcomes(report).forEach((planned, outcome) -> actions.add(action(planned, outcome)));
        plan.put(key, actions);
        record.putAll(plan);
        return record;
    }

    /** {@code ok}, {@code refused} (the plan check refused the plan) or {@code failed}, as the cycle metrics say. */
    static String outcome(CycleReport report) {
        if (report.decision() != null && !report.decision().isValid()) return "refused";
        return report.failure() != null ? "failed" : "ok";
    }

    /**
     * What tells this cycle's decision apart from another's: its bundle version and mode, how it ended, its
     * rules, its actions with their outcomes, and what those that changed something wrote.
     */
    static List<Object> signature(CycleReport report) {
        List<Object> signature = new ArrayList<>();
        signature.add(report.bundleVersion());
        signature.add(report.modeName());
        signature.add(report.failure() == null ? "" : report.failure().describe());
        if (report.decision() != null) {
            signature.add(report.decision().firedRules());
            // What an action that changed something wrote tells two decisions apart (a phase Degraded, then Healthy).
            CycleSummary.outcomes(report).forEach((planned, outcome) -> signature.add(planned.action().identity() + " " + outcome
                    + (CHANGED.contains(outcome) ? " " + planned.action().formHash() : "")));
            report.decision().problems().forEach(p -> signature.add(p.toString()));
        }
        return signature;
    }

    private static Map<String, Object> action(PlannedAction planned, String outcome) {
        Map<String, Object> form;
        if (CHANGED.contains(outcome)) {
            form = new LinkedHashMap<>(PlanYaml.actionForm(planned));
            if ("Secret".equals(planned.action().getTarget().getKind())) form = redacted(form);
        } else {
            form = new LinkedHashMap<>();
            form.put("action", planned.action().identity());
            form.put("by", planned.rules());
        }
        form.put("outcome", outcome);
        return form;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> redacted(Map<String, Object> map) {
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((key, value) -> {
            if (SECRET_FIELDS.contains(key) && value instanceof Map<?, ?> secret) {
                Map<String, Object> sizes = new LinkedHashMap<>();
                secret.forEach((name, text) -> sizes.put(String.valueOf(name), "(redacted, " + String.valueOf(text).length() + " characters)"));
                copy.put(key, sizes);
            } else {
                copy.put(key, value instanceof Map<?, ?> nested ? redacted((Map<String, Object>) nested) : value);
            }
        });
        return copy;
    }
}
