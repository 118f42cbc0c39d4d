package dev.runbook.operator.record;

import dev.runbook.operator.kube.Maps;
import dev.runbook.rules.fact.ObjectRef;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The primaries as this operator's status writes left them, kept until the informer shows them: the
 * next cycle of a primary sees its last write even when the informer's watch has not delivered it
 * yet. A change of status alone starts no cycle, but the re-check one second after a changing cycle
 * does, and on a loaded machine the watch can lag by seconds; a cycle on the version the write
 * replaced would take the status it already wrote for a change to make, send it with that stale
 * resourceVersion, meet a 409, and be requeued as a changing cycle to run on the stale copy again.
 * JOSDK keeps the same kind of temporary cache for the writes it makes itself.
 *
 * <p>Only a cached copy whose resourceVersion is one that this operator's writes replaced is swapped:
 * any other version (the informer caught up, or someone else wrote since) is newer or unknown, and is
 * trusted, and the entry is dropped. One per bundle controller, shared by its reconcile threads.
 */
public final class WrittenPrimaries {
    /** A write: the object the API server returned, and the resourceVersions it and the writes before it replaced. */
    private record Written(Map<String, Object> object, Set<String> replaced) {}

    private final Map<ObjectRef, Written> byRef = new ConcurrentHashMap<>();
    private final String fieldManager;

    WrittenPrimaries(String fieldManager) {
        this.fieldManager = fieldManager;
    }

    /** Remembers a write of {@code ref} made on {@code replacedVersion}, as the API server returned it. */
    void wrote(ObjectRef ref, String replacedVersion, Map<String, Object> written) {
        if (replacedVersion == null || written == null || Maps.resourceVersion(written) == null) return;
        Map<String, Object> object = new LinkedHashMap<>(written);
        // The informers keep no other manager's managedFields (TrimmedCache); neither does this copy.
        Map<String, Object> metadata = new LinkedHashMap<>(Maps.map(written, "metadata"));
        if (metadata.get("managedFields") instanceof List<?> entries) {
            metadata.put("managedFields", entries.stream()
                    .filter(entry -> entry instanceof Map<?, ?> map && fieldManager.equals(map.get("manager"))).toList());
        }
        object.put("metadata", metadata);
        byRef.compute(ref, (key, before) -> {
            Set<String> replaced = new HashSet<>();
            if (before != null && replacedVersion.equals(Maps.resourceVersion(before.object()))) replaced.addAll(before.replaced());
            replaced.add(replacedVersion);
            return new Written(object, Set.copyOf(replaced));
        });
    }

    /**
     * The primary a cycle should see: the one this operator last wrote when {@code cached} is a version
     * that write replaced, else {@code cached} itself.
     */
    public Map<String, Object> freshest(Map<String, Object> cached) {
        if (cached == null || byRef.isEmpty()) return cached;
        ObjectRef ref = Maps.refOf(cached);
        Written written = byRef.get(ref);
        if (written == null) return cached;
        if (written.replaced().contains(Maps.resourceVersion(cached))) return written.object();
        byRef.remove(ref, written);
        return cached;
    }

    /** How many writes are kept, not yet seen in an informer. */
    int size() {
        return byRef.size();
    }
}
