package dev.runbook.operator.shard;

import dev.runbook.operator.testkit.MergePatches;
import dev.runbook.operator.testkit.SpreadNames;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The primaries of the sharding tests: WebApps of the greeter bundle in one namespace, each with a
 * {@code spec.counter} that the bundle copies to {@code status.seen}, and the sharding labels read back.
 */
public final class ShardedWebApps {
    public static final String API_VERSION = "test.runbook.dev/v1";
    public static final String KIND = "WebApp";

    private final KubernetesClient client;
    private final String namespace;
    private final CycleRecords keys = new CycleRecords("test.runbook.dev", KIND);

    public ShardedWebApps(KubernetesClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    /** Creates {@code count} apps at counter 1, named so that each of {@code members} owns some ({@link SpreadNames}). */
    public void create(int count, Set<String> members) {
        for (String name : SpreadNames.over("test.runbook.dev", KIND, namespace, "app", count, List.of(members))) {
            client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).resource(new GenericKubernetesResourceBuilder()
                    .withApiVersion(API_VERSION).withKind(KIND).withNewMetadata().withName(name).endMetadata()
                    .addToAdditionalProperties("spec", Map.of("counter", "1")).build()).create();
        }
    }

    /** Sets every primary's {@code spec.counter}. */
    public void setCounter(String counter) {
        for (GenericKubernetesResource primary : all()) {
            MergePatches.merge(client, client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace)
                    .withName(primary.getMetadata().getName()), Map.of("spec", Map.of("counter", counter)));
        }
    }

    public List<GenericKubernetesResource> all() {
        return client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).list().getItems();
    }

    /** The owner of each assigned primary, by hash key. */
    public Map<String, String> owners() {
        Map<String, String> owners = new HashMap<>();
        for (GenericKubernetesResource primary : all()) {
            if (owner(primary) != null) owners.put(keyOf(primary), owner(primary));
        }
        return owners;
    }

    public String keyOf(GenericKubernetesResource primary) {
        return keys.keyOf(namespace, primary.getMetadata().getName());
    }

    public static String owner(GenericKubernetesResource primary) {
        return primary.getMetadata().getLabels() == null ? null : primary.getMetadata().getLabels().get(ShardLabels.SHARD);
    }

    @SuppressWarnings("unchecked")
    public static String status(GenericKubernetesResource primary, String field) {
        Object status = primary.getAdditionalProperties().get("status");
        return status instanceof Map<?, ?> map ? String.valueOf(((Map<String, Object>) map).get(field)) : null;
    }
}
