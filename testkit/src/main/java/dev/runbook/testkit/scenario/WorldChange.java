package dev.runbook.testkit.scenario;

import java.util.Map;

/**
 * A change of the world between two steps of a drill, as the scenario file writes it, e.g.
 * {@code podNotReady: pg-0} or {@code set: {kind: PostgresCluster, name: pg, path: spec.image, value: x}}.
 *
 * @param type   podNotReady, podReady, nodeNotReady, nodeReady, deletePod, jobSucceeds, jobFails, annotate, label,
 *               set, create, delete
 * @param kind   the kind of the object changed (Pod or Job implied by the short forms)
 * @param name   its name; the namespace is the primary's unless given
 * @param fields the other fields of the change (key, value, path, object, namespace, apiVersion)
 * @param line   where the change is written
 */
public record WorldChange(String type, String kind, String name, Map<String, Object> fields, int line) {
    public static final java.util.List<String> TYPES = java.util.List.of(
            "podNotReady", "podReady", "nodeNotReady", "nodeReady", "deletePod", "jobSucceeds", "jobFails", "annotate", "label", "set", "create", "delete");
}
