package dev.runbook.testkit.scenario;

import dev.runbook.testkit.simulation.Simulator;
import dev.runbook.rules.fact.ObjectRef;

import java.util.Map;

/** Carries out the world changes of a drill step on the simulator. */
public final class WorldChanges {
    private WorldChanges() {}

    /**
     * @throws dev.runbook.engine.problem.InvalidInputException naming the change's line when it cannot be made
     */
    public static void apply(WorldChange change, Simulator simulator, String primaryNamespace, String file) {
        String namespace = change.fields().get("namespace") == null ? primaryNamespace : String.valueOf(change.fields().get("namespace"));
        ObjectRef ref = NodeChanges.TYPES.contains(change.type()) ? NodeChanges.ref(change.name())
                : Simulator.ref(change.kind(), namespace, change.name());
        Map<String, Object> fields = change.fields();
        try {
            switch (change.type()) {
                case "podNotReady" -> simulator.podNotReady(ref);
                case "nodeNotReady", "nodeReady" -> NodeChanges.apply(change.type(), simulator, change.name());
                case "podReady" -> simulator.podReady(ref);
                case "deletePod" -> simulator.deletePod(ref);
                case "jobSucceeds" -> simulator.jobSucceeds(ref);
                case "jobFails" -> simulator.jobFails(ref);
                case "annotate" -> simulator.annotate(ref, str(fields.get("key")), str(fields.get("value")));
                case "label" -> simulator.label(ref, str(fields.get("key")), str(fields.get("value")));
                case "set" -> simulator.setField(ref, str(fields.get("path")), fields.get("value"));
                case "create" -> {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> object = new java.util.LinkedHashMap<>((Map<String, Object>) fields.get("object"));
                    if (object.get("metadata") instanceof Map<?, ?> meta && !meta.containsKey("namespace")) {
                        @SuppressWarnings("unchecked")
                        Map<String, Object> copy = new java.util.LinkedHashMap<>((Map<String, Object>) meta);
                        copy.put("namespace", primaryNamespace);
                        object.put("metadata", copy);
                    }
                    simulator.create(object);
                }
                case "delete" -> simulator.delete(ref);
                default -> throw new IllegalStateException("unknown change " + change.type());
            }
        } catch (RuntimeException e) {
            throw new dev.runbook.engine.problem.InvalidInputException(new dev.runbook.engine.problem.Problem(
                    file, change.line(), 1, change.type() + " " + ref + ": " + e.getMessage()));
        }
    }

    private static String str(Object value) {
        return value == null ? null : String.valueOf(value);
    }
}
