package dev.runbook.operator.admission;

import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.operator.shard.HashRing;
import dev.runbook.operator.shard.ShardLabels;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponseBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The mutating admission webhook's decision on an object being created, when shards are on
 * (docs/sharding.md#the-webhook-at-create): the {@code runbook.dev/shard} label it should carry, added by a
 * JSON patch, so that its owner's informers hold it from its first event instead of after a sharder pass.
 *
 * <ul>
 *   <li>a primary (of a kind a bundle reconciles) without the label: its ring owner among the live members,
 *       by the same key and ring the sharder uses ({@link ShardLabels#keyOf}, {@link HashRing}), so the
 *       sharder finds it where it would have put it. No label when no member is live, or when its name is
 *       not known yet ({@code generateName}): the sharder assigns it on its next pass;</li>
 *   <li>any other object without the label whose controller (its owner reference with {@code controller:
 *       true}) carries one: the controller's. That is how the Pods a StatefulSet or a Job of the operator's
 *       makes follow their primary's shard without a label in the pod template (changing a template
 *       would roll every pod).</li>
 * </ul>
 *
 * An object that already carries the label is left as it is. Nothing here can refuse a create: every
 * answer allows it, and the webhook's failurePolicy is Ignore. An object this misses is labelled by the
 * sharder's next pass ({@link dev.runbook.operator.shard.Sharder}), which is the backstop.
 */
public final class ShardAdmission {
    private static final Logger LOG = LoggerFactory.getLogger(ShardAdmission.class);

    /** The labels of an object named by an owner reference, as the API server has them now. */
    public interface Owners {
        Optional<Map<String, String>> labelsOf(String apiVersion, String kind, String namespace, String name);
    }

    private final Supplier<? extends Collection<PrimaryKind>> primaryKinds;
    private final Supplier<? extends Set<String>> liveMembers;
    private final Owners owners;
    private final KubernetesSerialization json = new KubernetesSerialization();

    /**
     * @param primaryKinds the primary kinds of the bundles that run now (they change with a reload)
     * @param liveMembers  the live shard members ({@code Membership::live})
     * @param owners       reads an owner's labels ({@link #ownersFrom})
     */
    public ShardAdmission(Supplier<? extends Collection<PrimaryKind>> primaryKinds, Supplier<? extends Set<String>> liveMembers,
                          Owners owners) {
        this.primaryKinds = primaryKinds;
        this.liveMembers = liveMembers;
        this.owners = owners;
    }

    /** Owners read from the API server, one GET each; an owner that cannot be read (gone, or not readable) has none. */
    public static Owners ownersFrom(KubernetesClient client) {
        return (apiVersion, kind, namespace, name) -> {
            try {
                GenericKubernetesResource owner = client.genericKubernetesResources(apiVersion, kind).inNamespace(namespace)
                        .withName(name).get();
                return Optional.ofNullable(owner).map(o -> o.getMetadata().getLabels() == null ? Map.of() : o.getMetadata().getLabels());
            } catch (KubernetesClientException e) {
                LOG.debug("owner {} {}/{} not readable: {}", kind, namespace, name, e.getMessage());
                return Optional.empty();
            }
        };
    }

    /** The shard label {@code object} (of API group {@code group}, kind {@code kind}) should get at create; empty for none. */
    public Optional<String> shardOf(String group, String kind, String namespace, GenericKubernetesResource object) {
        Map<String, String> labels = object.getMetadata().getLabels();
        if (labels != null && labels.containsKey(ShardLabels.SHARD)) return Optional.empty();
        boolean primary = primaryKinds.get().stream()
                .anyMatch(p -> p.kind().group().equals(group) && p.kind().kind().equals(kind));
        if (primary) {
            String name = object.getMetadata().getName();
            if (name == null || name.isEmpty()) return Optional.empty();
            return HashRing.of(liveMembers.get()).ownerOf(ShardLabels.keyOf(group, kind, namespace, name));
        }
        List<OwnerReference> references = object.getMetadata().getOwnerReferences();
        if (references == null) return Optional.empty();
        return references.stream().filter(reference -> Boolean.TRUE.equals(reference.getController())).findFirst()
                .flatMap(controller -> owners.labelsOf(controller.getApiVersion(), controller.getKind(), namespace, controller.getName()))
                .map(ownerLabels -> ownerLabels.get(ShardLabels.SHARD));
    }

    /** The review answered: always allowed, with a JSON patch adding the label when {@link #shardOf} names one. */
    public AdmissionReview answer(AdmissionReview review) {
        AdmissionRequest request = review.getRequest();
        var response = new AdmissionResponseBuilder().withUid(request.getUid()).withAllowed(true);
        try {
            if ("CREATE".equals(request.getOperation()) && request.getObject() != null) {
                @SuppressWarnings("unchecked")
                Map<String, Object> sent = json.convertValue(request.getObject(), Map.class);
                GenericKubernetesResource object = json.convertValue(sent, GenericKubernetesResource.class);
                if (object.getMetadata() != null) {
                    shardOf(request.getKind().getGroup(), request.getKind().getKind(), request.getNamespace(), object)
                            .ifPresent(member -> response.withPatchType("JSONPatch").withPatch(base64(json.asJson(patch(sent, member)))));
                }
            }
        } catch (RuntimeException e) {
            // Allowed unlabelled: the sharder's next pass labels it.
            LOG.warn("shard webhook: {} {}/{} left for the sharder: {}", request.getKind().getKind(), request.getNamespace(),
                    request.getName(), e.toString());
        }
        return new AdmissionReviewBuilder().withApiVersion("admission.k8s.io/v1").withKind("AdmissionReview")
                .withResponse(response.build()).build();
    }

    /**
     * The JSON patch (RFC 6902) that adds the label: the whole labels map when the object as sent has none
     * (an "add" below a missing member fails), else the one label.
     */
    static List<Map<String, Object>> patch(Map<String, Object> object, String member) {
        Object metadata = object.get("metadata");
        boolean hasLabels = metadata instanceof Map<?, ?> map && map.get("labels") instanceof Map<?, ?>;
        Map<String, Object> operation = new LinkedHashMap<>();
        operation.put("op", "add");
        if (hasLabels) {
            // RFC 6901: '~' in a key is written "~0", '/' "~1".
            operation.put("path", "/metadata/labels/" + ShardLabels.SHARD.replace("~", "~0").replace("/", "~1"));
            operation.put("value", member);
        } else {
            operation.put("path", "/metadata/labels");
            operation.put("value", Map.of(ShardLabels.SHARD, member));
        }
        return List.of(operation);
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}
