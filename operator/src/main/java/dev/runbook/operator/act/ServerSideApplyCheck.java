package dev.runbook.operator.act;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Whether a server-side apply would change nothing, decided from the object as the informer cached
 * it, so that an unchanged object costs no request. It would change nothing when both hold:
 *
 * <ul>
 *   <li>the fields this field manager owns by apply (its {@code managedFields} entry) are exactly the
 *       fields of the desired object — apply drops owned fields that are no longer desired, and takes
 *       ownership of desired fields it does not own yet, and either is a write;</li>
 *   <li>every desired value is what the object holds (the object may hold more: defaults the API
 *       server added, fields of other managers). Lists compare item by item in order, each item as a
 *       subset, since the server adds defaults inside list items too.</li>
 * </ul>
 *
 * <p>Ownership is compared down to the first list: below a list, the managed-fields keys name items
 * by key or value ({@code k:}, {@code v:}), and a difference inside is caught by the value comparison.
 * When in doubt the answer is "it may change": the caller then applies, as it would without a cache.
 */
final class ServerSideApplyCheck {
    private ServerSideApplyCheck() {}

    static boolean changesNothing(Map<String, Object> desired, Map<String, Object> cached, String fieldManager) {
        if (cached == null) return false;
        Map<?, ?> owned = ownedByApply(cached, fieldManager);
        if (owned == null) return false;
        Set<List<String>> ownedPaths = new HashSet<>();
        ownedPaths(owned, List.of(), ownedPaths);
        Set<List<String>> desiredPaths = new HashSet<>();
        desiredPaths(desired, List.of(), ownedPaths, desiredPaths);
        return ownedPaths.equals(desiredPaths) && contains(cached, desired, List.of(), ownedPaths);
    }

    /** The fieldsV1 of this manager's apply entry, or null when it has none. */
    private static Map<?, ?> ownedByApply(Map<String, Object> cached, String fieldManager) {
        if (!(cached.get("metadata") instanceof Map<?, ?> metadata)) return null;
        if (!(metadata.get("managedFields") instanceof List<?> entries)) return null;
        for (Object entry : entries) {
            if (entry instanceof Map<?, ?> e && fieldManager.equals(e.get("manager")) && "Apply".equals(e.get("operation"))
                    && (e.get("subresource") == null || "".equals(e.get("subresource")))
                    && e.get("fieldsV1") instanceof Map<?, ?> fields) {
                return fields;
            }
        }
        return null;
    }

    private static void ownedPaths(Map<?, ?> fields, List<String> path, Set<List<String>> into) {
        for (Map.Entry<?, ?> entry : fields.entrySet()) {
            String key = String.valueOf(entry.getKey());
            if (!key.startsWith("f:")) continue;
            List<String> child = append(path, key.substring(2));
            Map<?, ?> below = entry.getValue() instanceof Map<?, ?> m ? m : Map.of();
            boolean leaf = below.keySet().stream().noneMatch(k -> String.valueOf(k).startsWith("f:"));
            if (leaf || isList(below)) into.add(child);
            else ownedPaths(below, child, into);
        }
    }

    private static boolean isList(Map<?, ?> fields) {
        return fields.keySet().stream().map(String::valueOf)
                .anyMatch(k -> k.startsWith("k:") || k.startsWith("v:") || k.startsWith("i:"));
    }

    /**
     * The paths apply records for the desired object: maps walked, lists and scalars as leaves. A map
     * the manager owns whole (an atomic map, such as a Service's selector) is one leaf.
     */
    private static void desiredPaths(Map<?, ?> object, List<String> path, Set<List<String>> owned,
                                     Set<List<String>> into) {
        for (Map.Entry<?, ?> entry : object.entrySet()) {
            String key = String.valueOf(entry.getKey());
            if (path.isEmpty() && (key.equals("apiVersion") || key.equals("kind"))) continue;
            if (path.equals(List.of("metadata")) && (key.equals("name") || key.equals("namespace"))) continue;
            List<String> child = append(path, key);
            if (entry.getValue() instanceof Map<?, ?> map && !map.isEmpty() && !owned.contains(child)) {
                desiredPaths(map, child, owned, into);
            } else {
                into.add(child);
            }
        }
    }

    /**
     * Whether {@code actual} holds every value of {@code expected}; a map owned whole must hold no more
     * keys either, since apply replaces it whole.
     */
    private static boolean contains(Object actual, Object expected, List<String> path, Set<List<String>> owned) {
        if (expected instanceof Map<?, ?> want) {
            if (!(actual instanceof Map<?, ?> have)) return false;
            if (!path.isEmpty() && owned.contains(path) && !have.keySet().equals(want.keySet())) return false;
            for (Map.Entry<?, ?> entry : want.entrySet()) {
                if (!have.containsKey(entry.getKey()) && entry.getValue() != null) return false;
                List<String> child = append(path, String.valueOf(entry.getKey()));
                if (!contains(have.get(entry.getKey()), entry.getValue(), child, owned)) return false;
            }
            return true;
        }
        if (expected instanceof List<?> want) {
            if (!(actual instanceof List<?> have) || have.size() != want.size()) return false;
            for (int i = 0; i < want.size(); i++) {
                // Items are matched in order, each as a subset: the server adds defaults inside them.
                if (!contains(have.get(i), want.get(i), append(path, "[" + i + "]"), owned)) return false;
            }
            return true;
        }
        if (expected instanceof Number a && actual instanceof Number b) {
            return a.doubleValue() == b.doubleValue();
        }
        return Objects.equals(expected, actual);
    }

    private static List<String> append(List<String> path, String key) {
        String[] steps = path.toArray(new String[path.size() + 1]);
        steps[path.size()] = key;
        return List.of(steps);
    }
}
