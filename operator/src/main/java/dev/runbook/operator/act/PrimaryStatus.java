package dev.runbook.operator.act;

import dev.runbook.engine.apply.ActionEffect;
import dev.runbook.engine.apply.Change;
import dev.runbook.engine.apply.Outcome;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.SetCondition;
import dev.runbook.rules.action.SetStatus;
import dev.runbook.rules.fact.ObjectRef;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The status actions ({@code setStatus}, {@code setCondition}) a cycle's plan asks of its own primary:
 * not sent one by one, but kept for the record phase, which writes them with its own status fields in
 * one merge patch (and sends nothing when the status comes out as the primary already has it). Each
 * action's outcome is known at once from the status it projects: UPDATED when it changes the status
 * as the earlier ones left it, NONE otherwise. One per cycle, used by one thread.
 */
public final class PrimaryStatus {
    private final ObjectRef primary;
    private final List<PlannedAction> actions = new ArrayList<>();
    private Map<String, Object> projected;

    public PrimaryStatus(ObjectRef primary) {
        this.primary = primary;
    }

    /** Whether the action is one of the primary's status actions, which this class takes. */
    public boolean takes(Action action) {
        return isStatusOf(primary, action);
    }

    /** Whether the action is a {@code setStatus} or {@code setCondition} on {@code primary}. */
    public static boolean isStatusOf(ObjectRef primary, Action action) {
        return (action instanceof SetStatus || action instanceof SetCondition) && primary.equals(action.getTarget());
    }

    /**
     * Takes the action, projecting it on the primary as the earlier ones left it.
     *
     * @param current the primary as cached, used when this is the cycle's first status action
     */
    public Outcome add(PlannedAction planned, Map<String, Object> current, Instant now) {
        Change change = ActionEffect.on(projected == null ? current : projected, planned.action(), now);
        actions.add(planned);
        if (change.outcome() == Outcome.NONE) {
            if (projected == null) projected = current;
            return Outcome.NONE;
        }
        projected = change.object();
        return Outcome.UPDATED;
    }

    /** The actions taken, in plan order. */
    public List<PlannedAction> actions() {
        return List.copyOf(actions);
    }

    /**
     * The primary after the actions, computed afresh from {@code current}: the record phase replays them on
     * the object it writes, so that a write retried on fresh state (after a 409) still carries them all.
     */
    public static Map<String, Object> applied(List<PlannedAction> actions, Map<String, Object> current, Instant now) {
        Map<String, Object> object = current;
        for (PlannedAction planned : actions) {
            Change change = ActionEffect.on(object, planned.action(), now);
            if (change.outcome() != Outcome.NONE) object = change.object();
        }
        return object;
    }
}
