package dev.runbook.rules.invariant;

import dev.runbook.rules.action.Action;
import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Resource;
import dev.runbook.rules.fact.Values;

import java.util.List;

/**
 * One action of the cycle that just ran, as an invariant sees it: the action, the rules that asked
 * for it, what applying it did, and its target as it was before (so that an invariant can say
 * "never delete a running backup" about a Job that is gone by the time it runs).
 *
 * @see Violation
 */
public final class AppliedAction {
    private final Action action;
    private final List<String> rules;
    private final String outcome;
    private final Resource before;

    /**
     * @param outcome CREATED, UPDATED, DELETED or NONE
     * @param before  the target before the plan was applied, or null when it did not exist
     */
    public AppliedAction(Action action, List<String> rules, String outcome, Resource before) {
        this.action = action;
        this.rules = List.copyOf(rules);
        this.outcome = outcome;
        this.before = before;
    }

    public Action getAction() { return action; }
    /** apply, delete, setStatus, setCondition, event, requeue, label, annotate, mergePatch */
    public String getType() { return action.getType(); }
    public ObjectRef getTarget() { return action.getTarget(); }
    /** The target's kind, or "" for an action without a target. */
    public String getKind() { return action.getTarget() == null ? "" : action.getTarget().getKind(); }
    /** The target's name, or "" for an action without a target. */
    public String getName() { return action.getTarget() == null ? "" : action.getTarget().getName(); }
    public List<String> getRules() { return rules; }
    public String getOutcome() { return outcome; }
    /** Whether applying it changed the cluster (any outcome but NONE). */
    public boolean isChanged() { return !"NONE".equals(outcome); }
    public Resource getBefore() { return before; }

    /** A field of the action's YAML form as text ({@code path}, {@code key}, {@code value}, ...), or null. */
    public String field(String key) { return Values.asString(action.toMap().get(key)); }

    @Override
    public String toString() { return outcome + " " + action.identity(); }
}
