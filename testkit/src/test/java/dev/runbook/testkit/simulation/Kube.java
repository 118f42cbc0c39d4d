package dev.runbook.testkit.simulation;

import dev.runbook.engine.apply.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builders for the Kubernetes objects the simulation tests use, as modifiable nested maps. */
final class Kube {
    private Kube() {}

    static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");

    static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        return map;
    }

    static List<Object> list(Object... items) {
        return new ArrayList<>(List.of(items));
    }

    static Map<String, Object> configMap(String namespace, String name, Map<String, Object> data) {
        return map("apiVersion", "v1", "kind", "ConfigMap",
                "metadata", map("name", name, "namespace", namespace),
                "data", data);
    }

    static Map<String, Object> statefulSet(String namespace, String name, int replicas, String image) {
        return map("apiVersion", "apps/v1", "kind", "StatefulSet",
                "metadata", map("name", name, "namespace", namespace),
                "spec", map(
                        "replicas", replicas,
                        "serviceName", name,
                        "selector", map("matchLabels", map("app", name)),
                        "template", map(
                                "metadata", map("labels", map("app", name), "annotations", map("team", "db")),
                                "spec", map("containers", list(map("name", "main", "image", image))))));
    }

    static Map<String, Object> job(String namespace, String name) {
        return map("apiVersion", "batch/v1", "kind", "Job",
                "metadata", map("name", name, "namespace", namespace),
                "spec", map("template", map("spec", map("containers", list(map("name", "backup", "image", "backup:1"))))));
    }

    static Map<String, Object> ownedBy(Map<String, Object> object, Map<String, Object> owner) {
        @SuppressWarnings("unchecked")
        Map<String, Object> metadata = (Map<String, Object>) object.get("metadata");
        @SuppressWarnings("unchecked")
        Map<String, Object> ownerMetadata = (Map<String, Object>) owner.get("metadata");
        metadata.put("ownerReferences", list(map(
                "apiVersion", owner.get("apiVersion"), "kind", owner.get("kind"),
                "name", ownerMetadata.get("name"), "uid", ownerMetadata.get("uid"), "controller", true)));
        return object;
    }

    /**
     * Asserts that two values mean the same, numbers compared by value: an action's values may hold
     * 3 as an Integer or as a Long, and the cluster treats both alike.
     */
    static void assertSameJson(Object actual, Object expected) {
        org.assertj.core.api.Assertions.assertThat(Json.canonical(actual)).isEqualTo(Json.canonical(expected));
    }

    @SuppressWarnings("unchecked")
    static Object at(Map<String, Object> object, String dottedPath) {
        return dev.runbook.rules.fact.ObjectPath.read(object, dottedPath);
    }

    static String resourceVersion(Map<String, Object> object) {
        return (String) at(object, "metadata.resourceVersion");
    }

    /** The condition of this type in status.conditions, or null. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> condition(Map<String, Object> object, String type) {
        Object conditions = at(object, "status.conditions");
        if (!(conditions instanceof List<?> list)) return null;
        for (Object item : list) {
            if (item instanceof Map<?, ?> c && type.equals(c.get("type"))) return (Map<String, Object>) c;
        }
        return null;
    }
}
