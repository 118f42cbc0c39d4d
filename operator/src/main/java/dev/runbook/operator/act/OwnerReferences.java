package dev.runbook.operator.act;

import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Primary;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Owner references to the primary on what the operator applies, so that deleting the primary deletes
 * what was made for it (Kubernetes' garbage collector follows them). Only for namespaced objects in
 * the primary's own namespace: Kubernetes ignores an owner in another namespace, and a cluster-scoped
 * object cannot have a namespaced owner.
 */
public final class OwnerReferences {
    private OwnerReferences() {}

    /**
     * The object with a controller reference to the primary added, unless it already names the primary
     * (by uid) or is not in the primary's namespace, or is the primary itself. The object is not changed.
     * Only the maps on the way to the owner references are new: the rest (the spec, most of the object)
     * is shared with {@code object}, not copied, as this runs for every applied object of every cycle.
     */
    public static Map<String, Object> withOwner(Map<String, Object> object, ObjectRef target, Primary primary) {
        return withOwner(object, target, primary, Map.of());
    }

    /**
     * As {@link #withOwner(Map, ObjectRef, Primary)}, and an object the primary owns also carries
     * {@code labels} (the shard member's label, docs/sharding.md#secondaries): it belongs to that one
     * primary, so it follows the primary's shard. Only the object's own labels: never those of a template
     * inside it (a StatefulSet's pods would roll).
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> withOwner(Map<String, Object> object, ObjectRef target, Primary primary,
                                                Map<String, String> labels) {
        if (!ownedBy(target, primary)) return object;
        Map<String, Object> metadata = object.get("metadata") == null ? Map.of() : (Map<String, Object>) object.get("metadata");
        List<?> existing = metadata.get("ownerReferences") instanceof List<?> list ? list : List.of();
        boolean named = false;
        for (Object owner : existing) {
            if (owner instanceof Map<?, ?> map && primary.getUid().equals(map.get("uid"))) named = true;
        }
        Map<String, Object> ownLabels = metadata.get("labels") instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
        boolean labelled = labels.entrySet().stream().allMatch(label -> label.getValue().equals(ownLabels.get(label.getKey())));
        if (named && labelled) return object;
        Map<String, Object> changed = new LinkedHashMap<>(metadata);
        if (!named) {
            List<Object> owners = new ArrayList<>(existing);
            owners.add(of(primary));
            changed.put("ownerReferences", owners);
        }
        if (!labelled) {
            Map<String, Object> withLabels = new LinkedHashMap<>(ownLabels);
            withLabels.putAll(labels);
            changed.put("labels", withLabels);
        }
        Map<String, Object> copy = new LinkedHashMap<>(object);
        copy.put("metadata", changed);
        return copy;
    }

    /** Whether the primary owns the target: a namespaced object of its namespace, not the primary itself. */
    static boolean ownedBy(ObjectRef target, Primary primary) {
        return !primary.getUid().isEmpty() && !target.getNamespace().isEmpty()
                && target.getNamespace().equals(primary.getNamespace())
                && !(target.getKind().equals(primary.getKind()) && target.getName().equals(primary.getName()));
    }

    /** A controller owner reference to the primary. */
    static Map<String, Object> of(Primary primary) {
        Map<String, Object> owner = new LinkedHashMap<>();
        owner.put("apiVersion", primary.getApiVersion());
        owner.put("kind", primary.getKind());
        owner.put("name", primary.getName());
        owner.put("uid", primary.getUid());
        owner.put("controller", true);
        owner.put("blockOwnerDeletion", true);
        return owner;
    }
}
