package dev.runbook.operator.act;

import java.util.List;
import java.util.Map;
import java.util.Objects;

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
 *
 * <p>It runs for every applied object of every cycle, so it walks the desired object and the manager's
 * fields side by side and builds nothing: no path of each field, no set of paths to compare (those were
 * most of its cost).
 */
final class ServerSideApplyCheck {
    private ServerSideApplyCheck() {}

    static boolean changesNothing(Map<String, Object> desired, Map<String, Object> cached, String fieldManager) {
        if (cached == null) return false;
        Map<?, ?> owned = ownedByApply(cached, fieldManager);
        if (owned == null) return false;
        return ownsExactly(owned, desired, Level.ROOT) && contains(cached, desired, owned, false);
    }

    /** The fieldsV1 of this manager's apply entry, or null when it has none. */
    static Map<?, ?> ownedByApply(Map<String, Object> cached, String fieldManager) {
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

    /** Where a map of the desired object is: apply records neither apiVersion and kind nor the metadata's name and namespace. */
    private enum Level {
        ROOT, METADATA, BELOW;

        boolean skips(String key) {
            return switch (this) {
                case ROOT -> key.equals("apiVersion") || key.equals("kind");
                case METADATA -> key.equals("name") || key.equals("namespace");
                case BELOW -> false;
            };
        }

        Level below(String key) {
            return this == ROOT && key.equals("metadata") ? METADATA : BELOW;
        }
    }

    /**
     * Whether the fields apply records for {@code desired} are exactly those {@code fields} names at the
     * same place ({@code fields} null: none). Apply records a field for every scalar, list and empty map,
     * and for a map the manager owns whole (an atomic map, such as a Service's selector); the other maps
     * it walks. A field of {@code fields} is owned whole when nothing below it names a field, or it
     * names list items ({@code k:}, {@code v:}, {@code i:}).
     */
    private static boolean ownsExactly(Map<?, ?> fields, Map<?, ?> desired, Level level) {
        int matched = 0;
        for (Map.Entry<?, ?> entry : desired.entrySet()) {
            String key = String.valueOf(entry.getKey());
            if (level.skips(key)) continue;
            Object value = entry.getValue();
            boolean walked = value instanceof Map<?, ?> map && !map.isEmpty();
            String name = "f:" + key;
            Object field = fields == null ? null : fields.get(name);
            if (field == null && (fields == null || !fields.containsKey(name))) {
                // Not owned: a map apply walks may still record nothing here (metadata with a name alone).
                if (walked && ownsExactly(null, (Map<?, ?>) value, level.below(key))) continue;
                return false;
            }
            matched++;
            Map<?, ?> below = field instanceof Map<?, ?> m ? m : Map.of();
            boolean whole = ownedWhole(below);
            if (walked && !whole) {
                if (!ownsExactly(below, (Map<?, ?>) value, level.below(key))) return false;
            } else if (!whole) {
                return false; // a scalar or a list desired where the manager owns fields below it
            }
        }
        return matched == fieldCount(fields);
    }

    /** The number of fields (keys {@code f:...}) {@code fields} names; 0 for none. */
    private static int fieldCount(Map<?, ?> fields) {
        if (fields == null) return 0;
        int count = 0;
        for (Object key : fields.keySet()) {
            if (String.valueOf(key).startsWith("f:")) count++;
        }
        return count;
    }

    /** Whether a field is owned whole: nothing below it names a field, or it names list items. */
    private static boolean ownedWhole(Map<?, ?> below) {
        boolean namesFields = false;
        for (Object key : below.keySet()) {
            String k = String.valueOf(key);
            if (k.startsWith("k:") || k.startsWith("v:") || k.startsWith("i:")) return true;
            if (k.startsWith("f:")) namesFields = true;
        }
        return !namesFields;
    }

    /**
     * Whether {@code actual} holds every value of {@code expected}; a map owned whole must hold no more
     * keys either, since apply replaces it whole.
     *
     * @param fields the manager's fields at this place while every map above it was walked, else null
     * @param whole  whether the manager owns this place whole
     */
    private static boolean contains(Object actual, Object expected, Map<?, ?> fields, boolean whole) {
        if (expected instanceof Map<?, ?> want) {
            if (!(actual instanceof Map<?, ?> have)) return false;
            if (whole && !have.keySet().equals(want.keySet())) return false;
            for (Map.Entry<?, ?> entry : want.entrySet()) {
                if (!have.containsKey(entry.getKey()) && entry.getValue() != null) return false;
                Map<?, ?> childFields = null;
                boolean childWhole = false;
                if (fields != null && entry.getValue() instanceof Map<?, ?>) { // only a map's ownership matters below
                    String name = "f:" + entry.getKey();
                    Object field = fields.get(name);
                    if (field != null || fields.containsKey(name)) {
                        Map<?, ?> below = field instanceof Map<?, ?> m ? m : Map.of();
                        childWhole = ownedWhole(below);
                        childFields = childWhole ? null : below;
                    }
                }
                if (!contains(have.get(entry.getKey()), entry.getValue(), childFields, childWhole)) return false;
            }
            return true;
        }
        if (expected instanceof List<?> want) {
            if (!(actual instanceof List<?> have) || have.size() != want.size()) return false;
            for (int i = 0; i < want.size(); i++) {
                // Items are matched in order, each as a subset: the server adds defaults inside them.
                if (!contains(have.get(i), want.get(i), null, false)) return false;
            }
            return true;
        }
        if (expected instanceof Number a && actual instanceof Number b) {
            return a.doubleValue() == b.doubleValue();
        }
        return Objects.equals(expected, actual);
    }
}
