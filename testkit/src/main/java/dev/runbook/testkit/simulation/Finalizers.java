package dev.runbook.testkit.simulation;

import dev.runbook.rules.fact.ObjectRef;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Finalizers on simulated objects: what the operator adds to a primary of a bundle with cleanup rules. */
public final class Finalizers {
    private Finalizers() {}

    /** Adds {@code finalizer} to the object's {@code metadata.finalizers} unless it is there. */
    public static void add(Simulator simulator, ObjectRef ref, String finalizer) {
        Map<String, Object> object = simulator.get(ref).orElseThrow(() -> new IllegalStateException(ref + " does not exist"));
        List<Object> finalizers = new ArrayList<>();
        if (object.get("metadata") instanceof Map<?, ?> metadata && metadata.get("finalizers") instanceof List<?> existing) {
            finalizers.addAll(existing);
        }
        if (finalizers.contains(finalizer)) return;
        finalizers.add(finalizer);
        simulator.setField(ref, "metadata.finalizers", finalizers);
    }
}
