package dev.runbook.operator.act;

import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.kube.Maps;
import dev.runbook.operator.observe.SecondaryInformers;
import dev.runbook.operator.observe.TrimmedCache;
import dev.runbook.rules.fact.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

import java.util.Map;
import java.util.Optional;

/**
 * One bundle controller's informers as the act and record phases see them during a cycle: what they
 * hold is read through the observe phase's {@link SecondaryInformers}, and every write the cycle makes
 * goes into the informers' temporary caches, JOSDK's own read-your-writes mechanism
 * ({@code handleRecentResourceCreate} and {@code handleRecentResourceUpdate}, what its dependent
 * resources do): until the watch delivers a write, the informer answers with the object as written,
 * and the watch's event for that very version starts no cycle.
 *
 * <p>A created object goes only to an informer that covers its kind (one behind a label selector
 * could be handed an object it would never hold); an update to every informer of the kind, and JOSDK
 * keeps it only where the informer still holds the version the write replaced.
 */
public final class ReadYourWrites<P extends HasMetadata> implements InformerCaches {
    private final SecondaryInformers<P> informers;
    private final KubeApi api;
    private final TrimmedCache trimmed;

    public ReadYourWrites(SecondaryInformers<P> informers, KubeApi api, TrimmedCache trimmed) {
        this.informers = informers;
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
        GenericKubernetesResource replaced = replaced(before);
        sources.forEach(source -> source.handleRecentResourceUpdate(ResourceID.fromResource(updated), updated, replaced));
    }

    /** The object as the informers keep it: other managers' managedFields left out ({@link TrimmedCache}). */
    private GenericKubernetesResource asCached(Map<String, Object> object) {
        return trimmed.keep(api.toResource(object));
    }

    /** Only the version the write replaced is read from the object before it. */
    private static GenericKubernetesResource replaced(Map<String, Object> before) {
        GenericKubernetesResource replaced = new GenericKubernetesResource();
        replaced.setMetadata(new ObjectMetaBuilder().withResourceVersion(Maps.resourceVersion(before)).build());
        return replaced;
    }
}
