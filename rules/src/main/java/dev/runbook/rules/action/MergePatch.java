package dev.runbook.rules.action;

import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Values;

import java.util.List;
import java.util.Map;

/** Patch these fields of an existing object (JSON merge patch: a null value removes the field). */
public final class MergePatch extends Action {
    private final Map<String, Object> patch;

    public MergePatch(ObjectRef target, Map<String, ?> patch) {
        super(target);
        if (patch == null || patch.isEmpty()) {
            throw new IllegalArgumentException("mergePatch of " + target + " needs at least one field");
        }
        this.patch = Values.frozenMap(patch);
    }

    @Override public String getType() { return "mergePatch"; }
    public Map<String, Object> getPatch() { return patch; }

    @Override
    protected String intentKey() { return String.valueOf(patch); }

    @Override
    public List<FieldWrite> writes() { return FieldWrite.leaves(getTarget(), List.of(), patch); }

    @Override
    protected void describe(Map<String, Object> into) { into.put("patch", patch); }
}
