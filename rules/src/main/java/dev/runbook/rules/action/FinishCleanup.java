package dev.runbook.rules.action;

import dev.runbook.rules.fact.ObjectRef;

import java.util.List;
import java.util.Map;

/**
 * Cleanup of the primary is finished: the operator's finalizer comes off it, and the API server then
 * deletes it (and the garbage collector what it owns). Idempotent: nothing happens when the finalizer
 * is already gone. A rule writes {@code finishCleanup($primary)}; the engine fills in the finalizer
 * (the bundle's, {@code runbook.dev/BUNDLE}), so a rule never names it.
 */
public final class FinishCleanup extends Action {
    private final String finalizer;

    public FinishCleanup(ObjectRef target, String finalizer) {
        super(target);
        this.finalizer = finalizer;
    }

    @Override public String getType() { return "finishCleanup"; }

    /** The finalizer to remove; null until the engine fills it in. */
    public String getFinalizer() { return finalizer; }

    /** The same action with the bundle's finalizer. */
    public FinishCleanup withFinalizer(String name) {
        return new FinishCleanup(getTarget(), name);
    }

    @Override
    public List<FieldWrite> writes() {
        return List.of(new FieldWrite(getTarget(), List.of("metadata", "finalizers", String.valueOf(finalizer)), FieldWrite.DELETED));
    }

    @Override
    protected void describe(Map<String, Object> into) {
        if (finalizer != null) into.put("finalizer", finalizer);
    }
}
