package dev.runbook.operator.observe;

import dev.runbook.operator.kube.CompactResource;
import dev.runbook.rules.fact.Values;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.javaoperatorsdk.operator.processing.event.source.informer.TransformingItemStore;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the informers keep of each object: all of it but the {@code managedFields} entries of other
 * field managers. Those entries record, field by field, who last wrote what (the API server, the
 * StatefulSet and endpoint controllers, the scheduler, kubelet or kwok, the instance manager), and
 * are often a third to half of a cached object; nothing in the operator reads them. Only this
 * bundle's own entries are read (the server-side apply check compares the fields its field manager
 * owns with what it would apply), and they are kept. Rules never see {@code managedFields} of other
 * managers either way: the same trimmed object is what the cycle turns into facts.
 *
 * <p>JOSDK hands one item store to every informer of a source, and an informer's relist drops from
 * its store whatever its own list did not return: a store shared by the informers of several
 * namespaces would lose the other namespaces' objects. So a trimmed store is given only to a source
 * with one informer: one that watches every namespace (or a cluster-scoped kind) or exactly one;
 * a controller that watches several namespaces keeps whole objects.
 */
public final class TrimmedCache {
    private final String fieldManager;

    public TrimmedCache(String fieldManager) {
        this.fieldManager = fieldManager;
    }

    /**
     * A new trimming store for one source, or null (JOSDK's default store, whole objects) when the
     * source watches {@code namespaces} with more than one informer. Empty means every namespace.
     */
    public <R extends HasMetadata> ItemStore<R> storeFor(Set<String> namespaces) {
        return namespaces.size() <= 1 ? new TransformingItemStore<R>(this::keep) : null;
    }

    /**
     * What the cache keeps of {@code object}: its other managers' {@code managedFields} entries
     * removed, and a plain generic resource (a secondary) as a {@link CompactResource}. A primary is
     * of its own generated class, which JOSDK reads from the cache only to clone it (a JSON round trip)
     * for each cycle, and its filter of updates reads only the metadata: its spec and status are kept
     * frozen ({@link Values#frozenMap}: small maps as two arrays, not Jackson's {@code LinkedHashMap}s; a
     * PostgresCluster's 3 KB of JSON took 17.6 KB as those maps, docs/performance.md#the-operators-memory;
     * the cache's size after the change is measured only as part of the live heap at N=1000).
     */
    @SuppressWarnings("unchecked")
    public <R extends HasMetadata> R keep(R object) {
        R trimmed = trim(object);
        if (trimmed.getClass() != GenericKubernetesResource.class) {
            if (trimmed instanceof GenericKubernetesResource primary) frozenProperties(primary);
            return trimmed;
        }
        return (R) CompactResource.of((GenericKubernetesResource) trimmed).map(HasMetadata.class::cast).orElse(trimmed);
    }

    /** The primary's fields besides apiVersion, kind and metadata, frozen in place of Jackson's maps. */
    private static void frozenProperties(GenericKubernetesResource primary) {
        Map<String, Object> properties = primary.getAdditionalProperties();
        if (properties == null || properties.isEmpty()) return;
        try {
            primary.setAdditionalProperties(Values.frozenMap(properties));
        } catch (IllegalArgumentException e) {
            // A value frozen maps cannot hold (none that JSON gives): kept as Jackson made it.
        }
    }

    /** {@code object} itself, its other managers' {@code managedFields} entries removed. */
    public <R extends HasMetadata> R trim(R object) {
        var metadata = object.getMetadata();
        List<ManagedFieldsEntry> entries = metadata == null ? null : metadata.getManagedFields();
        if (entries == null || entries.isEmpty()) return object;
        boolean others = false;
        for (ManagedFieldsEntry entry : entries) {
            if (!fieldManager.equals(entry.getManager())) {
                others = true;
                break;
            }
        }
        if (others) {
            metadata.setManagedFields(entries.stream().filter(e -> fieldManager.equals(e.getManager()))
                    .collect(java.util.stream.Collectors.toCollection(java.util.ArrayList::new)));
        }
        return object;
    }
}
