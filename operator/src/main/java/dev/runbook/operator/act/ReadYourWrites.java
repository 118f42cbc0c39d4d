package dev.runbook.operator.act;

import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.kube.Maps;
import dev.runbook.operator.observe.SecondaryInformers;
import dev.runbook.operator.observe.TrimmedCache;
import dev.runbook.rules.fact.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.api.reconciler.dependent.RecentOperationCacheFiller;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

import java.util.Map;
import java.util.Optional;

/**
 * One bundle controller's informers as the act and record phases see them during a cycle: what they
 * hold is read through the observe phase's {@link SecondaryInformers}, and every write the cycle makes,
 * to its primary (the status write, a finalizer's removal) as to a secondary object, goes into the
 * informers' temporary caches: JOSDK's own read-your-writes mechanism ({@link RecentOperationCacheFiller}:
 * {@code handleRecentResourceCreate} and {@code handleRecentResourceUpdate}, what its dependent
 * resources and its {@code PrimaryUpdateAndCacheUtils} use). Until the watch delivers a write, the
 * informer answers with the object as written: JOSDK hands the next cycle the primary as this operator
 * last wrote it, and a secondary informer's watch event for that very version starts no cycle. JOSDK
 * keeps a write only while the informer still holds the version it replaced, and drops it at the next
 * event of the object (the informer caught up, or someone else wrote since).
 *
 * <p>Why the primary needs it: a change of status alone starts no cycle, but the re-check one second
 * after a changing cycle does, and on a loaded machine the watch can lag by seconds; a cycle on the
 * version the write replaced would take the status it already wrote for a change to make, send it with
 * that stale resourceVersion, meet a 409, and be requeued as a changing cycle to run on the stale copy
 * again.
 *
 * <p>A created secondary goes only to an informer that covers its kind (one behind a label selector
 * could be handed an object it would never hold); an update to every informer of the kind.
 */
public final class ReadYourWrites<P extends HasMetadata> implements InformerCaches {
    private final SecondaryInformers<P> informers;
    private final RecentOperationCacheFiller<P> primaries;
    private final PrimaryKind primaryKind;
    private final Class<P> primaryClass;
    private final KubeApi api;
    private final TrimmedCache trimmed;

    /**
     * @param primaries the primary informer (JOSDK's controller event source), which hands each cycle its primary
     */
    public ReadYourWrites(SecondaryInformers<P> informers, RecentOperationCacheFiller<P> primaries, PrimaryKind primaryKind,
                          Class<P> primaryClass, KubeApi api, TrimmedCache trimmed) {
        this.informers = informers;
        this.primaries = primaries;
        this.primaryKind = primaryKind;
        this.primaryClass = primaryClass;
        this.api = api;
        this.trimmed = trimmed;
    }

    @Override
    public boolean covers(ObjectRef ref) {
        return informers.covers(ref);
    }

    @Override
    public Optional<Map<String, Object>> get(ObjectRef ref) {
        return informers.get(ref);
    }

    @Override
    public void written(ObjectRef ref, Map<String, Object> before, Map<String, Object> after) {
        if (isPrimary(ref)) {
            // A primary is never created by a cycle: it exists before its first one.
            if (before == null) return;
            P written = trimmed.keep(api.client().getKubernetesSerialization().convertValue(after, primaryClass));
            primaries.handleRecentResourceUpdate(ResourceID.fromResource(written), written, replaced(before, primaryClass));
            return;
        }
        if (before == null) {
            informers.covering(ref).ifPresent(source -> {
                GenericKubernetesResource created = asCached(after);
                source.handleRecentResourceCreate(ResourceID.fromResource(created), created);
            });
            return;
        }
        var sources = informers.ofKind(ref);
        if (sources.isEmpty()) return;
        GenericKubernetesResource updated = asCached(after);
        GenericKubernetesResource replaced = replaced(before, GenericKubernetesResource.class);
        sources.forEach(source -> source.handleRecentResourceUpdate(ResourceID.fromResource(updated), updated, replaced));
    }

    /** The object as the informers keep it: other managers' managedFields left out ({@link TrimmedCache}). */
    private GenericKubernetesResource asCached(Map<String, Object> object) {
        return trimmed.keep(api.toResource(object));
    }

    private boolean isPrimary(ObjectRef ref) {
        return primaryKind.kind().apiVersion().equals(ref.getApiVersion()) && primaryKind.kind().kind().equals(ref.getKind());
    }

    /** Only the version the write replaced is read from the object before it. */
    private static <R extends HasMetadata> R replaced(Map<String, Object> before, Class<R> type) {
        try {
            R replaced = type.getDeclaredConstructor().newInstance();
            replaced.setMetadata(new ObjectMetaBuilder().withResourceVersion(Maps.resourceVersion(before)).build());
            return replaced;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(type + ": a resource class without a public no-argument constructor", e);
        }
    }
}
