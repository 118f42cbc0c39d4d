package dev.runbook.operator.record;

import dev.runbook.engine.apply.Outcome;
import dev.runbook.operator.act.AppliedAction;
import dev.runbook.operator.act.PrimaryStatus;
import dev.runbook.operator.error.Reasons;
import dev.runbook.operator.kube.EventWriter;
import dev.runbook.rules.action.EmitEvent;
import dev.runbook.rules.action.Requeue;
import dev.runbook.rules.fact.ObjectRef;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The one Normal event a cycle that changed something records on its primary: every applied action
 * that changed something, with its outcome, grouped by the rules that asked for it. One event per
 * changing cycle rather than one per action: at 1000 clusters, one per action was more than half of
 * the operator's writes while they converged (docs/performance-log.md), and what a reader of
 * {@code kubectl describe} learns is the same: what changed and which rule wanted it.
 *
 * <p>Reason: {@code Created}, {@code Updated} or {@code Deleted} when every change of the cycle had
 * that outcome, else {@code Applied}. The message fits an event's {@value EventWriter#MAX_MESSAGE} characters; a
 * cycle that changed more ends with how many more there were ({@code status.lastCycle} lists the
 * cycle's actions). Rules' own {@code event} actions and {@code requeue} are not listed: the first are
 * events of their own, the second changes nothing. Nor are {@code setStatus} and {@code setCondition}
 * on the primary itself: the status shows them, {@code status.lastCycle} names the rules that asked
 * for them, and a cycle that changed only the primary's status records no event (at 100 clusters the
 * changes events were a quarter of the operator's writes while they converged, many of them for such
 * cycles, docs/operations.md#events). Status changes of other objects are listed like any change.
 *
 * @param reason  the event's reason
 * @param message what changed, e.g. {@code apply Service demo/pg-rw (created), apply Service demo/pg-ro
 *                (created), asked by rule 'Keep the services'; label Pod demo/pg-0 role (updated), asked
 *                by rule 'Label the primary'}
 */
public record ChangesEvent(String reason, String message) {
    /**
     * The event for a cycle's applied actions; empty when none of them changed anything but the
     * primary's own status.
     *
     * @param primary the cycle's primary, whose own status actions are left out
     */
    public static Optional<ChangesEvent> of(List<AppliedAction> applied, ObjectRef primary) {
        Map<List<String>, List<String>> byRules = new LinkedHashMap<>();
        Outcome only = null;
        boolean mixed = false;
        int changes = 0;
        for (AppliedAction action : applied) {
            var planned = action.planned().action();
            if (!action.changedSomething() || planned instanceof EmitEvent || planned instanceof Requeue
                    || PrimaryStatus.isStatusOf(primary, planned)) continue;
            byRules.computeIfAbsent(action.planned().rules(), rules -> new ArrayList<>())
                    .add(action.identity() + " (" + action.outcome().name().toLowerCase(Locale.ROOT) + ")");
            mixed |= only != null && only != action.outcome();
            only = action.outcome();
            changes++;
        }
        if (changes == 0) return Optional.empty();
        String reason = mixed ? Reasons.APPLIED : switch (only) {
            case CREATED -> "Created";
            case DELETED -> "Deleted";
            default -> "Updated";
        };
        return Optional.of(new ChangesEvent(reason, message(byRules, changes)));
    }

    private static String message(Map<List<String>, List<String>> byRules, int changes) {
        StringBuilder text = new StringBuilder();
        int listed = 0;
        for (Map.Entry<List<String>, List<String>> group : byRules.entrySet()) {
            String askedBy = ", asked by " + rules(group.getKey());
            StringBuilder part = new StringBuilder(text.isEmpty() ? "" : "; ");
            int inPart = 0;
            for (String change : group.getValue()) {
                String next = (inPart == 0 ? "" : ", ") + change;
                int remaining = changes - listed - inPart - 1;
                if (text.length() + part.length() + next.length() + askedBy.length() + more(remaining).length() > EventWriter.MAX_MESSAGE) break;
                part.append(next);
                inPart++;
            }
            if (inPart == 0) break;
            text.append(part).append(askedBy);
            listed += inPart;
            if (inPart < group.getValue().size()) break;
        }
        String rest = more(changes - listed);
        return text.isEmpty() ? rest.substring("; ".length()) : text + rest;
    }

    private static String more(int remaining) {
        return remaining <= 0 ? "" : "; and " + remaining + " more change" + (remaining == 1 ? "" : "s")
                + " (status.lastCycle lists the cycle's actions)";
    }

    private static String rules(List<String> rules) {
        if (rules.isEmpty()) return "no rule";
        return (rules.size() == 1 ? "rule " : "rules ") + "'" + String.join("', '", rules) + "'";
    }
}
