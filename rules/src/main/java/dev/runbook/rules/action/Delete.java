package dev.runbook.rules.action;

import dev.runbook.rules.fact.ObjectRef;

import java.util.List;
import java.util.Map;

/** The object should not exist: deleted when present, nothing done when already gone. */
public final class Delete extends Action {
    public Delete(ObjectRef target) {
        super(target);
    }

    @Override public String getType() { return "delete"; }

    @Override
    public List<FieldWrite> writes() { return List.of(new FieldWrite(getTarget(), List.of(), FieldWrite.DELETED)); }

    @Override
    protected void describe(Map<String, Object> into) {}
}
