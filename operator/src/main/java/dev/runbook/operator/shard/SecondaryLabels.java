package dev.runbook.operator.shard;

import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.engine.bundle.SecondaryKind;
import dev.runbook.operator.observe.SecondaryMappers;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The shard labels of a primary kind's secondaries, as one sharder pass reads and writes them. Each kind
 * whose objects follow one primary ({@link SecondaryMappers#followsOnePrimary}) is listed once per pass
 * (from the API server's watch cache) and mapped to its primary by the bundle's own mapping, the one the
 * informers use: so the sharder labels exactly the objects a member's informers will look for.
 *
 * <p>{@link #label} gives every secondary of a primary the member's label. The sharder calls it before it
 * writes the member on the primary (docs/sharding.md#handover-of-secondaries): the new owner's informers
 * then hold the secondaries before its primary informer holds the primary, so its first cycle never sees
 * the primary without them. An object created meanwhile without the label (the webhook was down, or it
 * read its owner before the relabel) is labelled by a later pass, which labels every secondary whose
 * label is not its primary's owner.
 */
final class SecondaryLabels {
    private static final Logger LOG = LoggerFactory.getLogger(SecondaryLabels.class);
    /** The field manager of the sharder's label writes, as the API server's managedFields name it. */
    static final String FIELD_MANAGER = "runbook-sharder";

    /** One secondary object, with its shard label as listed (null when unlabelled). */
    record Secondary(String apiVersion, String kind, String namespace, String name, String shard) {}

    private final KubernetesClient client;
    private final Map<ResourceID, List<Secondary>> byPrimary;

    private SecondaryLabels(KubernetesClient client, Map<ResourceID, List<Secondary>> byPrimary) {
        this.client = client;
        this.byPrimary = byPrimary;
    }

    /** Lists the secondaries of {@code primaryKind} in {@code namespaces} (empty: every namespace), by primary. */
    static SecondaryLabels list(KubernetesClient client, PrimaryKind primaryKind, List<SecondaryKind> kinds, Set<String> namespaces) {
        Map<ResourceID, List<Secondary>> byPrimary = new HashMap<>();
        for (SecondaryKind kind : kinds) {
            if (!SecondaryMappers.followsOnePrimary(primaryKind, kind)) continue;
            // followsOnePrimary kinds name their primary: the mapper never asks for a namespace's primaries.
            var mapper = SecondaryMappers.of(primaryKind, kind, namespace -> Stream.empty());
            for (GenericKubernetesResource object : listed(client, primaryKind, kind, namespaces)) {
                Map<String, String> labels = object.getMetadata().getLabels();
                Secondary secondary = new Secondary(kind.kind().apiVersion(), kind.kind().kind(), object.getMetadata().getNamespace(),
                        object.getMetadata().getName(), labels == null ? null : labels.get(ShardLabels.SHARD));
                for (ResourceID primary : mapper.toPrimaryResourceIDs(object)) {
                    byPrimary.computeIfAbsent(primary, id -> new ArrayList<>()).add(secondary);
                }
            }
        }
        return new SecondaryLabels(client, byPrimary);
    }

    private static List<GenericKubernetesResource> listed(KubernetesClient client, PrimaryKind primaryKind, SecondaryKind kind,
                                                          Set<String> namespaces) {
        var options = new ListOptionsBuilder().withResourceVersion("0");
        String selector = SecondaryMappers.selector(primaryKind, kind, null);
        if (selector != null) options.withLabelSelector(selector);
        var resources = client.genericKubernetesResources(kind.kind().apiVersion(), kind.kind().kind());
        if (namespaces.isEmpty()) return resources.inAnyNamespace().list(options.build()).getItems();
        List<GenericKubernetesResource> objects = new ArrayList<>();
        for (String namespace : namespaces) objects.addAll(resources.inNamespace(namespace).list(options.build()).getItems());
        return objects;
    }

    /** The secondaries of {@code primary}, as listed. */
    List<Secondary> of(ResourceID primary) {
        return byPrimary.getOrDefault(primary, List.of());
    }

    /** What one {@link #label} did: how many objects it labelled, and whether every one now carries the label. */
    record Labelled(int written, boolean complete) {}

    /**
     * Labels every listed secondary of {@code primary} with {@code member} that does not carry it yet: a
     * merge patch of that one label, so it needs no precondition and repeats harmlessly. An object gone
     * meanwhile needs no label; any other refusal leaves the result incomplete, and the sharder then leaves
     * the primary alone until a later pass.
     */
    Labelled label(ResourceID primary, String member) {
        int written = 0;
        boolean complete = true;
        for (Secondary secondary : of(primary)) {
            if (member.equals(secondary.shard())) continue;
            try {
                client.genericKubernetesResources(secondary.apiVersion(), secondary.kind()).inNamespace(secondary.namespace())
                        .withName(secondary.name())
                        .patch(new PatchContext.Builder().withPatchType(PatchType.JSON_MERGE).withFieldManager(FIELD_MANAGER).build(),
                                Serialization.asJson(Map.of("metadata", Map.of("labels", Map.of(ShardLabels.SHARD, member)))));
                written++;
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) continue;
                complete = false;
                LOG.warn("could not label {} {}/{} for shard member {} ({}): its primary {} waits for a later pass",
                        secondary.kind(), secondary.namespace(), secondary.name(), member, e.getMessage(), primary);
            }
        }
        return new Labelled(written, complete);
    }
}
