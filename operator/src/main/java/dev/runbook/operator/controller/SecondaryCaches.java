package dev.runbook.operator.controller;

import dev.runbook.engine.bundle.SecondaryKind;
import dev.runbook.operator.act.InformerCaches;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.kube.Maps;
import dev.runbook.rules.fact.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The secondary informers of one bundle's controller, as the act phase's {@link InformerCaches}. An
 * informer covers a kind in a namespace when it holds every object of that kind there: a namespaced
 * kind mapped by owner reference or by reference, in a watched namespace, or a cluster-scoped kind
 * mapped by reference (watched everywhere). A kind mapped by labels is watched through a label
 * selector, so its informer holds only the matching objects, and covers nothing.
 *
 * <p>The cycle's writes go into the informers' temporary caches (JOSDK's
 * {@code handleRecentResourceCreate} and {@code handleRecentResourceUpdate}, what its dependent
 * resources do): until the watch delivers a write, the informer answers with the object as written,
 * and the watch's event for that very version starts no cycle. A created object goes only to an
 * informer that covers its kind (one behind a label selector could be handed an object it would never
 * hold); an update to every informer of the kind, and JOSDK keeps it only where the informer still
 * holds the version the write replaced.
 */
final class SecondaryCaches<P extends HasMetadata> implements InformerCaches {
    private final List<SecondaryKind> secondaries;
    private final Set<String> namespaces;
    private final Context<P> context;
    private final KubeApi api;
    private final TrimmedCache trimmed;

    SecondaryCaches(List<SecondaryKind> secondaries, Set<String> namespaces, Context<P> context, KubeApi api,
                    TrimmedCache trimmed) {
        this.secondaries = secondaries;
        this.namespaces = namespaces;
        this.context = context;
        this.api = api;
        this.trimmed = trimmed;
    }

    @Override
    public boolean covers(ObjectRef ref) {
        return source(ref) != null;
    }

    @Override
    public Optional<Map<String, Object>> get(ObjectRef ref) {
        InformerEventSource<GenericKubernetesResource, P> source = source(ref);
        if (source == null) return Optional.empty();
        String namespace = ref.getNamespace() == null || ref.getNamespace().isEmpty() ? null : ref.getNamespace();
        return source.get(new ResourceID(ref.getName(), namespace)).map(api::toMap);
    }

    @Override
    public void written(ObjectRef ref, Map<String, Object> before, Map<String, Object> after) {
        if (before == null) {
            InformerEventSource<GenericKubernetesResource, P> source = source(ref);
            if (source == null) return;
            GenericKubernetesResource created = asCached(after);
            source.handleRecentResourceCreate(ResourceID.fromResource(created), created);
            return;
        }
        GenericKubernetesResource updated = null;
        for (int i = 0; i < secondaries.size(); i++) {
            if (!isKindOf(secondaries.get(i), ref)) continue;
            if (updated == null) updated = asCached(after);
            // Only the version the write replaced is read from the object before it.
            GenericKubernetesResource replaced = new GenericKubernetesResource();
            replaced.setMetadata(new ObjectMetaBuilder().withResourceVersion(Maps.resourceVersion(before)).build());
            sourceAt(i).handleRecentResourceUpdate(ResourceID.fromResource(updated), updated, replaced);
        }
    }

    /** The object as the informers keep it: other managers' managedFields left out ({@link TrimmedCache}). */
    private GenericKubernetesResource asCached(Map<String, Object> object) {
        return trimmed.keep(api.toResource(object));
    }

    private static boolean isKindOf(SecondaryKind kind, ObjectRef ref) {
        return kind.kind().apiVersion().equals(ref.getApiVersion()) && kind.kind().kind().equals(ref.getKind());
    }

    @SuppressWarnings("unchecked") // every secondary source is an InformerEventSource of generic resources
    private InformerEventSource<GenericKubernetesResource, P> sourceAt(int index) {
        return (InformerEventSource<GenericKubernetesResource, P>) context.eventSourceRetriever()
                .getEventSourceFor(GenericKubernetesResource.class, RunbookReconciler.sourceName(index, secondaries.get(index)));
    }

    /** The informer that holds every object of {@code ref}'s kind in its namespace, or null. */
    private InformerEventSource<GenericKubernetesResource, P> source(ObjectRef ref) {
        boolean clusterScoped = ref.getNamespace() == null || ref.getNamespace().isEmpty();
        for (int i = 0; i < secondaries.size(); i++) {
            SecondaryKind kind = secondaries.get(i);
            if (!isKindOf(kind, ref)) continue;
            boolean covers = kind.mapping() != SecondaryKind.Mapping.LABELS && (kind.clusterScoped()
                    ? kind.mapping() == SecondaryKind.Mapping.REFERENCE && clusterScoped
                    : !clusterScoped && (namespaces.isEmpty() || namespaces.contains(ref.getNamespace())));
            if (covers) return sourceAt(i);
        }
        return null;
    }
}
