package dev.runbook.operator.controller;

import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.engine.bundle.SecondaryKind;
import dev.runbook.operator.cycle.ReconcileCycle;
import dev.runbook.operator.kube.KubeApi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The JOSDK reconciler of one bundle: it only connects JOSDK to the cycle. It declares one informer
 * per secondary kind of the bundle, each mapping its objects to their primary by owner reference, by
 * labels, or by the objects that name them ({@link ReferenceMapping}: the Nodes its Pods run on), and on each reconcile hands the primary and the cached secondaries to {@link ReconcileCycle}
 * and asks JOSDK to come back when the cycle says.
 *
 * <p>The primary's status is written by the cycle itself (merged, only when changed), never through
 * JOSDK's {@link UpdateControl}, and there is no finalizer: owner references let Kubernetes delete
 * what the operator made. A bundle with cleanup rules gets a {@link CleaningReconciler} instead.
 */
class RunbookReconciler<P extends GenericKubernetesResource> implements Reconciler<P> {
    private static final HeartbeatFilter HEARTBEATS = new HeartbeatFilter();

    private final Class<P> primaryClass;
    private final PrimaryKind primaryKind;
    private final List<SecondaryKind> secondaries;
    private final ReconcileCycle cycle;
    private final KubeApi api;
    /** What the informers keep of each object, and the namespaces the controller watches (empty: all). */
    private final TrimmedCache trimmed;
    private final Set<String> namespaces;
    /** Set when JOSDK prepares the event sources; used to re-reconcile every primary after a bundle swap. */
    private volatile SimpleInboundEventSource<P> swaps;
    private volatile IndexerResourceCache<P> primaries;

    RunbookReconciler(Class<P> primaryClass, PrimaryKind primaryKind, List<SecondaryKind> secondaries,
                      ReconcileCycle cycle, KubeApi api, TrimmedCache trimmed, Set<String> namespaces) {
        this.primaryClass = primaryClass;
        this.primaryKind = primaryKind;
        this.secondaries = List.copyOf(secondaries);
        this.cycle = cycle;
        this.api = api;
        this.trimmed = trimmed;
        this.namespaces = Set.copyOf(namespaces);
    }

    /** The name of the event source of the i-th secondary kind. */
    static String sourceName(int index, SecondaryKind kind) {
        return "secondary-" + index + "-" + kind.kind().kind().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * Asks JOSDK to reconcile every cached primary once more, as after a bundle swap: the new rules
     * decide at once instead of at the next change or period. JOSDK merges this with any event already
     * queued for a primary, so nothing runs twice at the same time.
     */
    void reconcileAll() {
        SimpleInboundEventSource<P> source = swaps;
        IndexerResourceCache<P> cache = primaries;
        if (source == null || cache == null) return; // not started yet: the first cycles will run the new bundle
        cache.list().map(ResourceID::fromResource).forEach(source::propagateEvent);
    }

    @Override
    public List<EventSource<?, P>> prepareEventSources(EventSourceContext<P> context) {
        List<EventSource<?, P>> sources = new ArrayList<>();
        primaries = context.getPrimaryCache();
        swaps = new SimpleInboundEventSource<>("bundle-swaps");
        sources.add(swaps);
        Map<String, InformerEventSource<GenericKubernetesResource, P>> byKind = new java.util.HashMap<>();
        Map<String, SecondaryToPrimaryMapper<GenericKubernetesResource>> mappers = new java.util.HashMap<>();
        for (int i = 0; i < secondaries.size(); i++) {
            SecondaryKind kind = secondaries.get(i);
            var builder = InformerEventSourceConfiguration
                    .from(new GroupVersionKind(kind.kind().apiVersion(), kind.kind().kind()), primaryClass)
                    .withName(sourceName(i, kind));
            SecondaryToPrimaryMapper<GenericKubernetesResource> mapper;
            if (kind.mapping() == SecondaryKind.Mapping.REFERENCE) {
                // A cluster-scoped kind (Nodes) is watched as a whole: it has no namespace to inherit.
                if (kind.clusterScoped()) {
                    builder.withWatchAllNamespaces().withFollowControllerNamespacesChanges(false);
                    builder.withItemStore(trimmed.storeFor(Set.of()));
                } else {
                    builder.withNamespacesInheritedFromController();
                    builder.withItemStore(trimmed.storeFor(namespaces));
                }
                ReferenceMapping reference = new ReferenceMapping(kind);
                var referring = byKind.get(kind.reference().by());
                reference.indexReferring(referring, api::toMap);
                mapper = reference.mapper(referring, mappers.get(kind.reference().by()));
                builder.withOnUpdateFilter(HEARTBEATS::accept);
            } else {
                builder.withNamespacesInheritedFromController();
                builder.withItemStore(trimmed.storeFor(namespaces));
                mapper = SecondaryMappers.of(primaryKind, kind,
                        namespace -> context.getPrimaryCache().list(namespace).map(ResourceID::fromResource));
                if (kind.mapping() == SecondaryKind.Mapping.LABELS) {
                    builder.withLabelSelector(new LabelMapping(kind.selector()).informerSelector());
                }
            }
            var source = new InformerEventSource<>(builder.withSecondaryToPrimaryMapper(mapper).build(), context);
            byKind.putIfAbsent(kind.kind().kind(), source);
            mappers.putIfAbsent(kind.kind().kind(), mapper);
            sources.add(source);
        }
        return sources;
    }

    @Override
    public UpdateControl<P> reconcile(P resource, Context<P> context) {
        return UpdateControl.<P>noUpdate().rescheduleAfter(runCycle(resource, context));
    }

    /** One cycle over the primary and its cached secondaries; when to run again. */
    final Duration runCycle(P resource, Context<P> context) {
        List<List<Map<String, Object>>> observed = ObservedSecondaries.of(secondaries, new ObservedSecondaries.Source() {
            @Override
            public List<GenericKubernetesResource> mappedTo(int index, SecondaryKind kind) {
                return source(context, index, kind).getSecondaryResources(resource).stream().toList();
            }

            @Override
            public Optional<GenericKubernetesResource> get(int index, SecondaryKind kind, ResourceID id) {
                return source(context, index, kind).get(id);
            }
        }, api);
        return cycle.run(api.toFrozenMap(resource), observed, new SecondaryCaches<>(secondaries, namespaces, context, api, trimmed));
    }

    @SuppressWarnings("unchecked") // every secondary source is an InformerEventSource of generic resources
    private InformerEventSource<GenericKubernetesResource, P> source(Context<P> context, int index, SecondaryKind kind) {
        return (InformerEventSource<GenericKubernetesResource, P>) context.eventSourceRetriever()
                .getEventSourceFor(GenericKubernetesResource.class, sourceName(index, kind));
    }

    @Override
    public ErrorStatusUpdateControl<P> updateErrorStatus(P resource, Context<P> context, Exception e) {
        // The cycle has recorded what it could; JOSDK retries with the controller's backoff.
        return ErrorStatusUpdateControl.noStatusUpdate();
    }
}
