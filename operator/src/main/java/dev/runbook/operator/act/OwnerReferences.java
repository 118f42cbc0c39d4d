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
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> withOwner(Map<String, Object> object, ObjectRef target, Primary primary) {
        if (primary.getUid().isEmpty() || target.getNamespace().isEmpty()
                || !target.getNamespace().equals(primary.getNamespace())
                || (target.getKind().equals(primary.getKind()) && target.getName().equals(primary.getName()))) {
            return object;
        }
        Map<String, Object> copy = dev.runbook.operator.kube.Maps.copy(object);
        Map<String, Object> metadata = (Map<String, Object>) copy.computeIfAbsent("metadata", k -> new LinkedHashMap<>());
        List<Object> owners = metadata.get("ownerReferences") instanceof List<?> list ? new ArrayList<>(list) : new ArrayList<>();
        for (Object owner : owners) {
            if (owner instanceof Map<?, ?> map && primary.getUid().equals(map.get("uid"))) return object;
        }
        owners.add(of(primary));
        metadata.put("ownerReferences", owners);
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
