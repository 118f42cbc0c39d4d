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
    @SuppressWarnings("unchecked")
    public static Map<String, Object> withOwner(Map<String, Object> object, ObjectRef target, Primary primary) {
        if (primary.getUid().isEmpty() || target.getNamespace().isEmpty()
                || !target.getNamespace().equals(primary.getNamespace())
                || (target.getKind().equals(primary.getKind()) && target.getName().equals(primary.getName()))) {
            return object;
        }
        Map<String, Object> metadata = object.get("metadata") == null ? Map.of() : (Map<String, Object>) object.get("metadata");
        List<?> existing = metadata.get("ownerReferences") instanceof List<?> list ? list : List.of();
        for (Object owner : existing) {
            if (owner instanceof Map<?, ?> map && primary.getUid().equals(map.get("uid"))) return object;
        }
        List<Object> owners = new ArrayList<>(existing);
        owners.add(of(primary));
        Map<String, Object> withOwners = new LinkedHashMap<>(metadata);
        withOwners.put("ownerReferences", owners);
        Map<String, Object> copy = new LinkedHashMap<>(object);
        copy.put("metadata", withOwners);
        return copy;
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
