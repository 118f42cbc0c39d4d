package dev.runbook.operator.controller;

import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.engine.bundle.SecondaryKind;
import dev.runbook.operator.act.ReadYourWrites;
import dev.runbook.operator.cycle.ReconcileCycle;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.observe.SecondaryInformers;
import dev.runbook.operator.observe.TrimmedCache;
import dev.runbook.operator.shard.ShardGate;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The JOSDK reconciler of one bundle: it only connects JOSDK to the cycle. It declares the informers
 * of the bundle's secondary kinds ({@link SecondaryInformers}), and on each reconcile hands the primary
 * and the cached secondaries to {@link ReconcileCycle}, with the informers through which the cycle's
 * writes are read back ({@link ReadYourWrites}), and asks JOSDK to come back when the cycle says.
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
    /** What the informers keep of each object, and the namespaces the controller watches (empty: all). */
    private final TrimmedCache trimmed;
    private final Set<String> namespaces;
    private final ShardGate gate;
    /** Per secondary kind, whether it has an informer of its unlabelled objects ({@link SecondaryInformers}). */
    private final List<Boolean> unlabelled;
    /** Set when JOSDK prepares the event sources; used to re-reconcile every primary after a bundle swap. */
    private volatile SimpleInboundEventSource<P> swaps;
    private volatile IndexerResourceCache<P> primaries;

    RunbookReconciler(Class<P> primaryClass, PrimaryKind primaryKind, List<SecondaryKind> secondaries,
                      ReconcileCycle cycle, KubeApi api, TrimmedCache trimmed, Set<String> namespaces, ShardGate gate) {
        this.primaryClass = primaryClass;
        this.primaryKind = primaryKind;
        this.secondaries = List.copyOf(secondaries);
        this.cycle = cycle;
        this.api = api;
        this.trimmed = trimmed;
        this.namespaces = Set.copyOf(namespaces);
        this.gate = gate;
        this.unlabelled = SecondaryInformers.withUnlabelledSources(primaryKind, this.secondaries, gate.selector());
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

    /** How many primaries the controller's informer holds now: with sharding, exactly this member's. */
    long primariesCached() {
        IndexerResourceCache<P> cache = primaries;
        return cache == null ? 0 : cache.keys().count();
    }

    @Override
    public List<EventSource<?, P>> prepareEventSources(EventSourceContext<P> context) {
        List<EventSource<?, P>> sources = new ArrayList<>();
        primaries = context.getPrimaryCache();
        swaps = new SimpleInboundEventSource<>("bundle-swaps");
        sources.add(swaps);
        sources.addAll(SecondaryInformers.declare(context, primaryKind, primaryClass, secondaries, namespaces, trimmed, api,
                gate.selector()));
        return sources;
    }

    @Override
    public UpdateControl<P> reconcile(P resource, Context<P> context) {
        if (!gate.mayAct(resource)) return UpdateControl.noUpdate(); // another shard member's, or handed back
        return UpdateControl.<P>noUpdate().rescheduleAfter(runCycle(resource, context));
    }

    /** One cycle over the primary and its cached secondaries; when to run again. */
    final Duration runCycle(P resource, Context<P> context) {
        SecondaryInformers<P> informers = new SecondaryInformers<>(secondaries, namespaces, unlabelled, context, api);
        return cycle.run(api.toFrozenMap(resource), informers.observed(resource), new ReadYourWrites<>(informers,
                context.eventSourceRetriever().getControllerEventSource(), primaryKind, primaryClass, api, trimmed));
    }

    @Override
    public ErrorStatusUpdateControl<P> updateErrorStatus(P resource, Context<P> context, Exception e) {
        // The cycle has recorded what it could; JOSDK retries with the controller's backoff.
        return ErrorStatusUpdateControl.noStatusUpdate();
    }
}
