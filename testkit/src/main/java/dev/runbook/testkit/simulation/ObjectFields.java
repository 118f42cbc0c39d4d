package dev.runbook.testkit.simulation;

import dev.runbook.engine.apply.Json;
import dev.runbook.engine.apply.MissingObjectException;
import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Values;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Reading the fields the simulated controllers share (owners, readiness, conditions, labels) from objects as maps. */
final class ObjectFields {
    private ObjectFields() {}

    /** The object, which must be of {@code kind} and exist. */
    static Map<String, Object> existing(Cluster cluster, ObjectRef ref, String kind, String what) {
        Objects.requireNonNull(ref, "ref");
        if (!kind.equals(ref.getKind())) {
            throw new IllegalArgumentException(what + " needs a " + kind + ", not " + ref);
        }
        return cluster.get(ref).orElseThrow(() -> new MissingObjectException(what, ref));
    }


    @SuppressWarnings("unchecked")
    static Map<String, Object> readyCondition(Map<String, Object> pod) {
        Map<String, Object> status = Json.mapAt(pod, "status");
        if (status != null && status.get("conditions") instanceof List<?> list) {
            for (Object item : list) {
                if (item instanceof Map<?, ?> c && "Ready".equals(c.get("type"))) return (Map<String, Object>) c;
            }
        }
        return null;
    }

    static boolean isReady(Map<String, Object> pod) {
        Map<String, Object> metadata = Json.mapAt(pod, "metadata");
        if (metadata != null && metadata.get("deletionTimestamp") != null) return false;
        Map<String, Object> condition = readyCondition(pod);
        return condition != null && "True".equals(condition.get("status"));
    }

    @SuppressWarnings("unchecked")
    static List<Object> conditions(Map<String, Object> status, ObjectRef ref) {
        Object value = status.get("conditions");
        if (value == null) {
            List<Object> created = new ArrayList<>();
            status.put("conditions", created);
            return created;
        }
        if (!(value instanceof List<?>)) {
            throw new IllegalStateException(ref + ": status.conditions is a " + value.getClass().getSimpleName() + ", not a list");
        }
        return (List<Object>) value;
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> ownerReferences(Map<String, Object> object) {
        Object value = Json.mapAt(object, "metadata") == null ? null : Json.mapAt(object, "metadata").get("ownerReferences");
        List<Map<String, Object>> owners = new ArrayList<>();
        if (value instanceof List<?> list) {
            for (Object item : list) {
                if (item instanceof Map<?, ?> map) owners.add((Map<String, Object>) map);
            }
        }
        return owners;
    }

    static String controllerUid(Map<String, Object> object) {
        for (Map<String, Object> owner : ownerReferences(object)) {
            if (Boolean.TRUE.equals(owner.get("controller"))) return Json.stringAt(owner, "uid");
        }
        return null;
    }

    static String uid(Map<String, Object> object) {
        return Json.stringAt(Json.mapAt(object, "metadata"), "uid");
    }

    static String namespace(Map<String, Object> object) {
        String namespace = Json.stringAt(Json.mapAt(object, "metadata"), "namespace");
        return namespace == null ? "" : namespace;
    }

    static String podName(Map<String, Object> pod) {
        return Json.stringAt(Json.mapAt(pod, "metadata"), "name");
    }

    static String label(Map<String, Object> object, String key) {
        return Json.stringAt(Json.mapAt(Json.mapAt(object, "metadata"), "labels"), key);
    }

    static Instant creationTime(Map<String, Object> object, Instant fallback) {
        Object value = Json.mapAt(object, "metadata") == null ? null : Json.mapAt(object, "metadata").get("creationTimestamp");
        return value == null ? fallback : Values.asInstant(value, "metadata.creationTimestamp");
    }

    static int intAt(Map<String, Object> map, String key, int defaultValue, String field) {
        Object value = map == null ? null : map.get(key);
        if (value == null) return defaultValue;
        long number = Values.asLong(value, field);
        if (number < 0 || number > Integer.MAX_VALUE) {
            throw new IllegalStateException(field + ": " + number + " is not a count");
        }
        return (int) number;
    }

    /** The controller owner reference a controller puts on what it creates for {@code owner}. */
    static Map<String, Object> controllerReference(Map<String, Object> owner) {
        ObjectRef ref = dev.runbook.engine.apply.KubeObject.refOf(owner);
        Map<String, Object> reference = new java.util.LinkedHashMap<>();
        reference.put("apiVersion", ref.getApiVersion());
        reference.put("kind", ref.getKind());
        reference.put("name", ref.getName());
        reference.put("uid", uid(owner));
        reference.put("controller", true);
        reference.put("blockOwnerDeletion", true);
        return reference;
    }
}
