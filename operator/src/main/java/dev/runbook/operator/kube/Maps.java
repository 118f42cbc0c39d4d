package dev.runbook.operator.kube;

import dev.runbook.rules.fact.Values;

import dev.runbook.rules.fact.ObjectRef;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Kubernetes objects as nested maps: reading fields, copying, comparing, and merge-patch diffs. */
public final class Maps {
    private Maps() {}

    public static ObjectRef refOf(Map<String, ?> object) {
        Map<String, Object> metadata = map(object, "metadata");
        return ObjectRef.of(string(object, "apiVersion"), string(object, "kind"),
                string(metadata, "namespace"), string(metadata, "name"));
    }

    public static String resourceVersion(Map<String, ?> object) {
        return string(map(object, "metadata"), "resourceVersion");
    }

    public static String uid(Map<String, ?> object) {
        return string(map(object, "metadata"), "uid");
    }

    /** The map under {@code key}, or an empty map when absent or not a map. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> map(Map<String, ?> parent, String key) {
        Object value = parent == null ? null : parent.get(key);
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    public static String string(Map<String, ?> parent, String key) {
        Object value = parent == null ? null : parent.get(key);
        return value == null ? null : value.toString();
    }

    /** A deep, modifiable copy of maps and lists; other values are shared (they are immutable). */
    @SuppressWarnings("unchecked")
    public static <T> T copy(T value) {
        return Values.thawed(value);
    }

    /**
     * The JSON merge patch (RFC 7386) that turns {@code before} into {@code after}: changed and new
     * fields with their new value, removed fields as null, maps compared key by key, lists and other
     * values as a whole. Empty when they are the same. Numbers compare by value (3 and 3L are equal).
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> diff(Map<String, ?> before, Map<String, ?> after) {
        Map<String, Object> patch = new LinkedHashMap<>();
        Map<String, ?> was = before == null ? Map.of() : before;
        Map<String, ?> now = after == null ? Map.of() : after;
        for (Map.Entry<String, ?> entry : now.entrySet()) {
            Object old = was.get(entry.getKey());
            Object value = entry.getValue();
            if (value == old) {
                // The very same value (a status projected by ActionEffect shares what it did not write): no change.
            } else if (value == null) {
                if (old != null) patch.put(entry.getKey(), null);
            } else if (value instanceof Map<?, ?> map && old instanceof Map<?, ?> oldMap) {
                Map<String, Object> inner = diff((Map<String, ?>) oldMap, (Map<String, ?>) map);
                if (!inner.isEmpty()) patch.put(entry.getKey(), inner);
            } else if (!same(old, value)) {
                patch.put(entry.getKey(), copy(value));
            }
        }
        for (Map.Entry<String, ?> entry : was.entrySet()) {
            if (entry.getValue() != null && !now.containsKey(entry.getKey())) patch.put(entry.getKey(), null);
        }
        return patch;
    }

    /** Whether two JSON-like values are the same: numbers by value, maps by entries, lists in order. */
    public static boolean same(Object a, Object b) {
        return Values.same(a, b);
    }
}
