package dev.runbook.operator.testkit;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

import java.util.Map;

import static dev.runbook.operator.testkit.Objects.at;
import static org.awaitility.Awaitility.await;

/**
 * The primaries the greeter bundles ({@link GreeterBundles}) reconcile, WebApps or Greeters, in a test's
 * namespace: created with {@code spec.counter} 0, the counter changed (a change that starts a cycle, which
 * the greeter records in {@code status.seen}), read back, and awaited until a status field says what the
 * test expects.
 */
public final class GreeterApps {
    private final KubernetesClient client;
    private final String namespace;

    public GreeterApps(KubernetesClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    public void create(ResourceDefinitionContext kind, String name) {
        GenericKubernetesResource resource = client.getKubernetesSerialization().convertValue(Map.of(
                "apiVersion", "test.runbook.dev/v1", "kind", kind.getKind(),
                "metadata", Map.of("name", name, "namespace", namespace),
                "spec", Map.of("counter", "0")), GenericKubernetesResource.class);
        client.genericKubernetesResources(kind).inNamespace(namespace).resource(resource).create();
    }

    /** A merge patch of {@code spec.counter}: no read before it, so no conflict with the operator's writes. */
    public void patchCounter(ResourceDefinitionContext kind, String name, String counter) {
        MergePatches.merge(client, client.genericKubernetesResources(kind).inNamespace(namespace).withName(name),
                Map.of("spec", Map.of("counter", counter)));
    }

    /** The object as a map, or an empty map while there is none. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> get(ResourceDefinitionContext kind, String name) {
        GenericKubernetesResource resource = client.genericKubernetesResources(kind).inNamespace(namespace).withName(name).get();
        return resource == null ? Map.of() : client.getKubernetesSerialization().convertValue(resource, Map.class);
    }

    /** Waits, at most {@link TestCluster#CONVERGE}, until {@code status.FIELD} is {@code value}. */
    public void awaitStatus(ResourceDefinitionContext kind, String name, String field, String value) {
        await().atMost(TestCluster.CONVERGE).until(() -> value.equals(at(get(kind, name), "status." + field)));
    }
}
