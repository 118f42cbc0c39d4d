package dev.runbook.operator.shard;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.util.HashMap;
import java.util.Map;

/**
 * Writes a primary's sharding labels: a sharder's {@link LabelChange} or an owner's acknowledgement of
 * a drain. Each write is a JSON merge patch of the two labels that carries the resourceVersion the
 * decision was made from: the API server refuses it (409 Conflict) when the primary changed since, so a
 * decision from a stale view never lands. A refused or vanished primary is reported, not thrown: the
 * next pass decides again from what is there.
 */
public final class LabelPatches {
    /**
     * What became of one write: written; refused, the primary changed since it was read; the primary is
     * gone; or not sent, because its secondaries could not all be labelled first ({@link Sharder}).
     */
    public enum Outcome { WRITTEN, STALE, GONE, DEFERRED }

    private final KubernetesClient client;
    private final String apiVersion;
    private final String kind;

    public LabelPatches(KubernetesClient client, String apiVersion, String kind) {
        this.client = client;
        this.apiVersion = apiVersion;
        this.kind = kind;
    }

    public Outcome apply(GenericKubernetesResource primary, LabelChange change) {
        Map<String, String> labels = new HashMap<>();
        if (change instanceof LabelChange.Assign assign) {
            labels.put(ShardLabels.SHARD, assign.member());
            labels.put(ShardLabels.DRAIN, null);
        } else {
            labels.put(ShardLabels.DRAIN, "true");
        }
        return patch(primary, labels);
    }

    /** The owner hands a draining primary back: both labels removed, the primary unassigned. */
    public Outcome acknowledgeDrain(GenericKubernetesResource primary) {
        Map<String, String> labels = new HashMap<>();
        labels.put(ShardLabels.SHARD, null);
        labels.put(ShardLabels.DRAIN, null);
        return patch(primary, labels);
    }

    private Outcome patch(GenericKubernetesResource primary, Map<String, String> labels) {
        Map<String, Object> metadata = new HashMap<>();
        metadata.put("resourceVersion", primary.getMetadata().getResourceVersion());
        metadata.put("labels", labels); // a null value removes the label
        try {
            client.genericKubernetesResources(apiVersion, kind).inNamespace(primary.getMetadata().getNamespace())
                    .withName(primary.getMetadata().getName())
                    .patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(Map.of("metadata", metadata)));
            return Outcome.WRITTEN;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) return Outcome.STALE;
            if (e.getCode() == 404) return Outcome.GONE;
            throw e;
        }
    }
}
