package dev.runbook.engine.policy;

import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.Apply;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every action names its namespace: an object a rule or template builds without
 * {@code metadata.namespace} goes to its primary's namespace, never to the API client's default (in a
 * pod that is the operator's own namespace, where its bundle ConfigMaps live). Built-in cluster-scoped
 * kinds stay without one, and the plan check refuses them unless the policy allows them.
 */
public final class ExplicitNamespace {
    private ExplicitNamespace() {}

    public static Action of(Action action, String primaryNamespace) {
        if (!(action instanceof Apply apply)) return action;
        Map<String, Object> object = inNamespace(apply.getObject(), primaryNamespace);
        return object == apply.getObject() ? action : new Apply(object, apply.getTemplate());
    }

    /** The object with {@code metadata.namespace} set to {@code namespace} when it has none; the same object otherwise. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> inNamespace(Map<String, Object> object, String namespace) {
        if (namespace == null || namespace.isEmpty()) return object;
        if (ClusterScopedKinds.BUILT_IN.contains(String.valueOf(object.get("kind")))) return object;
        if (!(object.get("metadata") instanceof Map<?, ?> meta)) return object;
        Object current = meta.get("namespace");
        if (current != null && !String.valueOf(current).isEmpty()) return object;
        Map<String, Object> metadata = new LinkedHashMap<>((Map<String, Object>) meta);
        metadata.put("namespace", namespace);
        Map<String, Object> copy = new LinkedHashMap<>(object);
        copy.put("metadata", metadata);
        return copy;
    }
}
