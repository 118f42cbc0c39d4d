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
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The JOSDK reconciler of one bundle: it only connects JOSDK to the cycle. It declares one informer
 * per secondary kind of the bundle, each mapping its objects to their primary by owner reference or by
 * labels, and on each reconcile hands the primary and the cached secondaries to {@link ReconcileCycle}
 * and asks JOSDK to come back when the cycle says.
 *
 * <p>The primary's status is written by the cycle itself (merged, only when changed), never through
 * JOSDK's {@link UpdateControl}, and there is no finalizer: owner references let Kubernetes delete
 * what the operator made. A bundle with cleanup rules gets a {@link CleaningReconciler} instead.
 */
class RunbookReconciler<P extends GenericKubernetesResource> implements Reconciler<P> {
    private final Class<P> primaryClass;
    private final PrimaryKind primaryKind;
    private final List<SecondaryKind> secondaries;
    private final ReconcileCycle cycle;
    private final KubeApi api;
    /** Set when JOSDK prepares the event sources; used to re-reconcile every primary after a bundle swap. */
    private volatile SimpleInboundEventSource<P> swaps;
    private volatile IndexerResourceCache<P> primaries;

    RunbookReconciler(Class<P> primaryClass, PrimaryKind primaryKind, List<SecondaryKind> secondaries,
                      ReconcileCycle cycle, KubeApi api) {
        this.primaryClass = primaryClass;
        this.primaryKind = primaryKind;
        this.secondaries = List.copyOf(secondaries);
        this.cycle = cycle;
        this.api = api;
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
        for (int i = 0; i < secondaries.size(); i++) {
            SecondaryKind kind = secondaries.get(i);
            var builder = InformerEventSourceConfiguration
                    .from(new GroupVersionKind(kind.kind().apiVersion(), kind.kind().kind()), primaryClass)
                    .withName(sourceName(i, kind))
                    .withNamespacesInheritedFromController()
                    .withSecondaryToPrimaryMapper(mapper(kind, context));
            if (kind.mapping() == SecondaryKind.Mapping.LABELS) {
                builder.withLabelSelector(new LabelMapping(kind.selector()).informerSelector());
            }
            sources.add(new InformerEventSource<>(builder.build(), context));
        }
        return sources;
    }

    private SecondaryToPrimaryMapper<GenericKubernetesResource> mapper(SecondaryKind kind, EventSourceContext<P> context) {
        if (kind.mapping() == SecondaryKind.Mapping.OWNER) {
            return Mappers.fromOwnerReferences(primaryKind.kind().apiVersion(), primaryKind.kind().kind(), !primaryKind.namespaced());
        }
        LabelMapping labels = new LabelMapping(kind.selector());
        if (labels.namesThePrimary()) {
            return object -> labels.primaryName(object.getMetadata().getLabels())
                    .map(name -> Set.of(new ResourceID(name, primaryKind.namespaced() ? object.getMetadata().getNamespace() : null)))
                    .orElse(Set.of());
        }
        // No value names the primary: the object belongs to every primary of its namespace.
        return object -> !labels.matchesConstants(object.getMetadata().getLabels()) ? Set.of()
                : context.getPrimaryCache().list(object.getMetadata().getNamespace())
                        .map(ResourceID::fromResource).collect(Collectors.toSet());
    }

    @Override
    public UpdateControl<P> reconcile(P resource, Context<P> context) {
        return UpdateControl.<P>noUpdate().rescheduleAfter(runCycle(resource, context));
    }

    /** One cycle over the primary and its cached secondaries; when to run again. */
    final Duration runCycle(P resource, Context<P> context) {
        List<List<Map<String, Object>>> observed = new ArrayList<>();
        for (int i = 0; i < secondaries.size(); i++) {
            var source = context.eventSourceRetriever().getEventSourceFor(GenericKubernetesResource.class,
                    sourceName(i, secondaries.get(i)));
            observed.add(source.getSecondaryResources(resource).stream()
                    .sorted(Comparator.comparing((GenericKubernetesResource o) -> o.getMetadata().getName()))
                    .map(api::toMap)
                    .toList());
        }
        return cycle.run(api.toMap(resource), observed);
    }

    @Override
    public ErrorStatusUpdateControl<P> updateErrorStatus(P resource, Context<P> context, Exception e) {
        // The cycle has recorded what it could; JOSDK retries with the controller's backoff.
        return ErrorStatusUpdateControl.noStatusUpdate();
    }
}
