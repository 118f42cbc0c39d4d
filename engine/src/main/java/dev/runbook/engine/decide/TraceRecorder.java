package dev.runbook.engine.decide;

import dev.runbook.engine.containment.RuleBudget;
import dev.runbook.rules.action.Action;
import org.kie.api.event.rule.BeforeMatchFiredEvent;
import org.kie.api.event.rule.AfterMatchFiredEvent;
import org.kie.api.event.rule.DefaultAgendaEventListener;
import org.kie.api.event.rule.ObjectDeletedEvent;
import org.kie.api.event.rule.ObjectInsertedEvent;
import org.kie.api.event.rule.ObjectUpdatedEvent;
import org.kie.api.event.rule.RuleRuntimeEventListener;
import org.kie.api.runtime.rule.FactHandle;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Listens to one session and records the trace: each firing with the facts it matched, and each
 * action with the rule that inserted it. An action withdrawn by truth maintenance (the rule's
 * {@code insertLogical} no longer holds) leaves the plan. One recorder per session, one thread.
 */
final class TraceRecorder extends DefaultAgendaEventListener implements RuleRuntimeEventListener {
    /** An action in working memory and the rule that put it there. */
    record Inserted(Action action, String rule) {}

    private final List<Firing> firings = new ArrayList<>();
    private final Map<FactHandle, Inserted> liveActions = new LinkedHashMap<>();
    /** By identity; made on the first withdrawal (most cycles withdraw nothing). */
    private Set<Action> withdrawn;
    /** {@link #firings()} once asked: the session is at rest then, and it is asked again for the decision. */
    private List<Firing> withdrawalsApplied;
    private String currentRule;
    private List<Object> currentMatched;
    // Made on the first action or fact a firing adds: most firings add one kind of the two, or nothing.
    private List<Action> currentAdded;
    private List<Object> currentDerived;

    @Override
    public void beforeMatchFired(BeforeMatchFiredEvent event) {
        currentRule = event.getMatch().getRule().getName();
        // The facts themselves: Firing describes them only when the trace is read.
        currentMatched = event.getMatch().getObjects();
        currentAdded = null;
        currentDerived = null;
    }

    @Override
    public void afterMatchFired(AfterMatchFiredEvent event) {
        firings.add(new Firing(currentRule, currentMatched, orEmpty(currentAdded), List.of(), orEmpty(currentDerived)));
        withdrawalsApplied = null;
        // What the consequence allocated in a JDK call (a string repeated, a copy) is this rule's, not the next one's.
        RuleBudget.measureMemory();
        currentRule = null;
    }

    @Override
    public void objectInserted(ObjectInsertedEvent event) {
        Object fact = event.getObject();
        String rule = event.getRule() != null ? event.getRule().getName() : currentRule;
        if (fact instanceof Action action) {
            liveActions.put(event.getFactHandle(), new Inserted(action, rule == null ? "(inserted from outside)" : rule));
            if (currentRule != null) {
                if (currentAdded == null) currentAdded = new ArrayList<>(2);
                currentAdded.add(action);
            }
        } else if (currentRule != null) {
            if (currentDerived == null) currentDerived = new ArrayList<>(2);
            currentDerived.add(fact);
        }
    }

    @Override
    public void objectUpdated(ObjectUpdatedEvent event) {
        if (event.getObject() instanceof Action action && liveActions.containsKey(event.getFactHandle())) {
            liveActions.put(event.getFactHandle(), new Inserted(action, liveActions.get(event.getFactHandle()).rule()));
        }
    }

    @Override
    public void objectDeleted(ObjectDeletedEvent event) {
        Inserted gone = liveActions.remove(event.getFactHandle());
        if (gone != null) {
            if (withdrawn == null) withdrawn = Collections.newSetFromMap(new IdentityHashMap<>());
            withdrawn.add(gone.action());
            withdrawalsApplied = null;
        }
    }

    /** The firings, each with the actions it added that were withdrawn since. */
    List<Firing> firings() {
        if (withdrawalsApplied != null) return withdrawalsApplied;
        List<Firing> result = new ArrayList<>(firings.size());
        for (Firing f : firings) {
            List<Action> gone = withdrawn == null || f.added().isEmpty() ? List.of() : withdrawnOf(f.added());
            result.add(gone.isEmpty() ? f : new Firing(f.rule(), f.matchedFacts(), f.added(), gone, f.derivedFacts()));
        }
        withdrawalsApplied = List.copyOf(result);
        return withdrawalsApplied;
    }

    private List<Action> withdrawnOf(List<Action> added) {
        List<Action> gone = new ArrayList<>(added.size());
        for (Action action : added) {
            if (withdrawn.contains(action)) gone.add(action);
        }
        return gone;
    }

    private static <T> List<T> orEmpty(List<T> list) { return list == null ? List.of() : list; }

    /** The actions still in working memory, in the order they were inserted. */
    List<Inserted> actions() { return new ArrayList<>(liveActions.values()); }

    String currentRule() { return currentRule; }

    /** The rules that fired most, most first, at most five. Counted here: only a cycle past its firing limit asks. */
    Map<String, Integer> topRules() {
        Map<String, Integer> firingsByRule = new HashMap<>();
        for (Firing firing : firings) firingsByRule.merge(firing.rule(), 1, Integer::sum);
        Map<String, Integer> top = new LinkedHashMap<>();
        firingsByRule.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(5)
                .forEach(e -> top.put(e.getKey(), e.getValue()));
        return top;
    }
}
