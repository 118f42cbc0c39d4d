package dev.runbook.operator.controller;

import dev.runbook.engine.bundle.SecondaryKind;
import dev.runbook.operator.act.InformerCaches;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.rules.fact.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
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
 */
final class SecondaryCaches<P extends HasMetadata> implements InformerCaches {
    private final List<SecondaryKind> secondaries;
    private final Set<String> namespaces;
    private final Context<P> context;
    private final KubeApi api;

    SecondaryCaches(List<SecondaryKind> secondaries, Set<String> namespaces, Context<P> context, KubeApi api) {
        this.secondaries = secondaries;
        this.namespaces = namespaces;
        this.context = context;
        this.api = api;
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

    /** The informer that holds every object of {@code ref}'s kind in its namespace, or null. */
    @SuppressWarnings("unchecked") // every secondary source is an InformerEventSource of generic resources
    private InformerEventSource<GenericKubernetesResource, P> source(ObjectRef ref) {
        boolean clusterScoped = ref.getNamespace() == null || ref.getNamespace().isEmpty();
        for (int i = 0; i < secondaries.size(); i++) {
            SecondaryKind kind = secondaries.get(i);
            if (!kind.kind().apiVersion().equals(ref.getApiVersion()) || !kind.kind().kind().equals(ref.getKind())) continue;
            boolean covers = kind.mapping() != SecondaryKind.Mapping.LABELS && (kind.clusterScoped()
                    ? kind.mapping() == SecondaryKind.Mapping.REFERENCE && clusterScoped
                    : !clusterScoped && (namespaces.isEmpty() || namespaces.contains(ref.getNamespace())));
            if (covers) {
                return (InformerEventSource<GenericKubernetesResource, P>) context.eventSourceRetriever()
                        .getEventSourceFor(GenericKubernetesResource.class, RunbookReconciler.sourceName(i, kind));
            }
        }
        return null;
    }
}
