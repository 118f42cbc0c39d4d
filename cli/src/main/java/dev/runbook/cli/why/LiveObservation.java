package dev.runbook.cli.why;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.engine.decide.Observation;
import dev.runbook.operator.observe.ListedSecondaries;
import dev.runbook.operator.observe.ObservedSecondaries;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.observe.Observer;
import dev.runbook.rules.fact.ObjectRef;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A primary and its objects as the operator would observe them now, read once from the API server
 * instead of from informer caches: the same mapping of objects to the primary, the same trimming, the
 * same {@link Observer} ({@link ObservedSecondaries}, {@link ListedSecondaries}). What differs is only
 * the moment: the informers of a running operator may lag the API server by a watch event.
 */
public final class LiveObservation {
    private final KubeApi api;

    public LiveObservation(KubeApi api) {
        this.api = api;
    }

    /** The primary of that kind, as nested maps, if it exists. */
    public Optional<Map<String, Object>> primary(PrimaryKind kind, String namespace, String name) {
        api.register(kind);
        return api.get(new ObjectRef(kind.kind().apiVersion(), kind.kind().kind(), kind.namespaced() ? namespace : "", name))
                .map(dev.runbook.rules.fact.Values::frozenInPlace);
    }

    /** The observation a cycle of {@code primary} would start from at {@code now}. */
    public Observation observe(BundleSpec spec, Map<String, Object> primary, Instant now) {
        @SuppressWarnings("unchecked")
        Map<String, Object> metadata = (Map<String, Object>) primary.get("metadata");
        String namespace = spec.primary().namespaced() ? (String) metadata.get("namespace") : null;
        ResourceID id = new ResourceID((String) metadata.get("name"), namespace);
        List<List<Map<String, Object>>> secondaries = ObservedSecondaries.of(spec.secondaries(),
                new ListedSecondaries(api.client(), spec, id), api);
        return new Observer(spec).observe(primary, secondaries, now);
    }
}
