package dev.runbook.testkit.simulation;

import dev.runbook.engine.apply.ActionEffect;
import dev.runbook.engine.apply.Change;
import dev.runbook.engine.apply.Outcome;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.EmitEvent;
import dev.runbook.rules.action.Requeue;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Applies the actions of a plan to a {@link Cluster}: each action's effect on its target is computed
 * by {@link ActionEffect} (idempotent by construction, so applying the same plan twice changes the
 * cluster once) and stored; an {@code event} is recorded in the cluster.
 *
 * <p>See {@link ActionEffect} for what each action does and refuses: a missing target throws
 * {@link dev.runbook.engine.apply.MissingObjectException}, as the Kubernetes API answers 404.
 */
public final class ActionApplier {

    /** The component named as the source of the events this applier records. */
    public static final String COMPONENT = "runbook-operator";

    private final Cluster cluster;

    public ActionApplier(Cluster cluster) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
    }

    /**
     * Applies the actions in order and returns one outcome per action. An action that throws stops
     * the plan there: the actions before it stay applied, as with a real API server.
     */
    public List<Outcome> applyAll(List<? extends Action> actions) {
        List<Outcome> outcomes = new ArrayList<>(actions.size());
        for (Action action : actions) outcomes.add(apply(action));
        return outcomes;
    }

    /** Applies one action; throws as {@link ActionEffect#on} does. */
    public Outcome apply(Action action) {
        ActionEffect.requireKnown(action);
        if (action instanceof EmitEvent event) {
            cluster.recordEvent(event.getTarget(), event.getEventType(), event.getReason(), event.getMessage(), COMPONENT);
            return Outcome.CREATED;
        }
        if (action instanceof Requeue) return Outcome.NONE;
        Change change = ActionEffect.on(cluster.get(action.getTarget()).orElse(null), action, cluster.now());
        switch (change.outcome()) {
            case CREATED, UPDATED -> cluster.put(change.object());
            case DELETED -> cluster.delete(action.getTarget());
            case NONE -> { }
        }
        return change.outcome();
    }
}
