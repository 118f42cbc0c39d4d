package dev.runbook.rules.action;

import dev.runbook.rules.fact.ObjectRef;

import java.util.List;
import java.util.Map;

/**
 * The object should not exist: deleted when present, nothing done when already gone. A delete decided on an
 * observed object carries its uid: when the object of that name is by then another one (a pod the StatefulSet
 * recreated while the decision was made from an older observation), it is not the one the rules meant, and it
 * is left alone.
 */
public final class Delete extends Action {
    private final String observedUid;

    public Delete(ObjectRef target) {
        this(target, "");
    }

    /** @param observedUid the uid of the object the rules decided on; "" when unknown (any object of that name) */
    public Delete(ObjectRef target, String observedUid) {
        super(target);
        this.observedUid = observedUid == null ? "" : observedUid;
    }

    /** The uid of the object the rules decided on, or "" (not part of what is asked: two deletes of one name are the same). */
    public String getObservedUid() { return observedUid; }

    @Override public String getType() { return "delete"; }

    @Override
    public List<FieldWrite> writes() { return List.of(new FieldWrite(getTarget(), List.of(), FieldWrite.DELETED)); }

    @Override
    protected void describe(Map<String, Object> into) {}
}
