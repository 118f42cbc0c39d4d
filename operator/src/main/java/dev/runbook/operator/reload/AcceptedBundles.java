package dev.runbook.operator.reload;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The operator's record of what it accepted: for each bundle ConfigMap whose bundle passed vetting, a
 * Secret in the same namespace holding a copy of the accepted data and its content hash. On start, and
 * on taking the Lease, the reloader runs these copies first, so a ConfigMap edited into something that
 * is refused never displaces the bundle that was accepted before (not even across a restart), and the
 * image's bundle does not come back by surprise.
 *
 * <p>A Secret and not a ConfigMap: the operator may read bundle ConfigMaps but not write them (least
 * privilege, see deploy/), and it writes Secrets in its namespace anyway (the webhook's certificate).
 * Each copy is owned by its ConfigMap, so deleting the ConfigMap while no operator runs also deletes the
 * copy (the garbage collector), and the reloader deletes copies whose ConfigMap is gone.
 */
public final class AcceptedBundles {
    /** The label on a copy; its value is the name of the ConfigMap it was accepted from. */
    public static final String LABEL = "runbook.dev/accepted-from";
    /** The annotation with the accepted content's hash (of the ConfigMap's data, as the reloader computes it). */
    public static final String CONTENT = "runbook.dev/content-hash";
    /** The annotation with the accepted bundle's name. */
    public static final String BUNDLE = "runbook.dev/bundle-name";
    /** The Secret type of a copy, so that nobody mistakes it for credentials. */
    public static final String TYPE = "runbook.dev/accepted-bundle";
    static final String PREFIX = "runbook-accepted-";
    /** The longest name of an object in Kubernetes. */
    private static final int MAX_NAME = 253;

    /** A copy: the ConfigMap it came from (name and uid), its data, its hash and the bundle's name. */
    public record Accepted(String configMap, String ownerUid, Map<String, String> data, String contentHash, String bundleName) {}

    private final KubernetesClient client;
    private final String namespace;

    public AcceptedBundles(KubernetesClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    /** The name of the copy of a ConfigMap's bundle (a hash of the ConfigMap's name when that would be too long). */
    public static String secretName(String configMap) {
        String name = PREFIX + configMap;
        return name.length() <= MAX_NAME ? name : PREFIX + contentHashOf(configMap);
    }

    private static String contentHashOf(String text) {
        return new dev.runbook.engine.bundle.BundleSource("", Map.of("name", text)).contentHash();
    }

    /** Records that the ConfigMap's {@code data} (of hash {@code contentHash}) was accepted, replacing any older copy. */
    public void record(ConfigMap from, Map<String, String> data, String contentHash, String bundleName) {
        Map<String, String> encoded = new TreeMap<>();
        data.forEach((key, text) -> encoded.put(key, Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8))));
        String name = from.getMetadata().getName();
        Secret copy = new SecretBuilder()
                .withNewMetadata()
                    .withName(secretName(name))
                    .withNamespace(namespace)
                    .addToLabels(LABEL, name)
                    .addToAnnotations(CONTENT, contentHash)
                    .addToAnnotations(BUNDLE, bundleName)
                    .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("v1").withKind("ConfigMap")
                            .withName(name).withUid(from.getMetadata().getUid()).build())
                .endMetadata()
                .withType(TYPE)
                .withData(encoded)
                .build();
        client.secrets().inNamespace(namespace).resource(copy).createOr(existing -> existing.update());
    }

    /** The copy accepted from that ConfigMap, if any. */
    public Optional<Accepted> find(String configMap) {
        return Optional.ofNullable(client.secrets().inNamespace(namespace).withName(secretName(configMap)).get())
                .filter(secret -> TYPE.equals(secret.getType()))
                .map(AcceptedBundles::accepted);
    }

    /** Every copy in the namespace. */
    public List<Accepted> all() {
        return client.secrets().inNamespace(namespace).withLabel(LABEL).list().getItems().stream()
                .filter(secret -> TYPE.equals(secret.getType()))
                .map(AcceptedBundles::accepted)
                .toList();
    }

    /** Deletes the copy of that ConfigMap's bundle, if there is one. */
    public void forget(String configMap) {
        client.secrets().inNamespace(namespace).withName(secretName(configMap)).delete();
    }

    private static Accepted accepted(Secret secret) {
        Map<String, String> data = new TreeMap<>();
        if (secret.getData() != null) {
            secret.getData().forEach((key, value) -> data.put(key, new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8)));
        }
        var annotations = secret.getMetadata().getAnnotations() == null ? Map.<String, String>of() : secret.getMetadata().getAnnotations();
        String ownerUid = secret.getMetadata().getOwnerReferences().stream().filter(o -> "ConfigMap".equals(o.getKind()))
                .map(o -> o.getUid()).findFirst().orElse("");
        return new Accepted(secret.getMetadata().getLabels().get(LABEL), ownerUid, data, annotations.getOrDefault(CONTENT, ""),
                annotations.getOrDefault(BUNDLE, ""));
    }
}
