package dev.runbook.operator.testkit;

import dev.runbook.operator.reload.BundleConfigMaps;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.nio.file.Path;
import java.util.List;

/**
 * Bundles shipped as ConfigMaps ({@code runbook pack}'s layout, the bundle label set) to the namespace a
 * running operator reloads them from, as an administrator ships them; and what the operator said about
 * each ConfigMap in its events there.
 */
public final class ShippedBundles {
    private final KubernetesClient client;
    private final String namespace;

    public ShippedBundles(KubernetesClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    /** Creates the ConfigMap {@code name} holding the bundle, or replaces what an earlier ship put there. */
    public void ship(String name, Path bundle) {
        client.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder()
                .withNewMetadata().withName(name).withNamespace(namespace).addToLabels(BundleConfigMaps.LABEL, "greeter").endMetadata()
                .withData(BundleConfigMaps.pack(bundle)).build()).createOr(existing -> existing.update());
    }

    /** The events about the ConfigMap {@code name}, oldest first as the server lists them. */
    public List<Event> events(String name) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> name.equals(e.getInvolvedObject().getName())).toList();
    }

    /** Those of {@link #events} with this reason. */
    public List<Event> events(String name, String reason) {
        return events(name).stream().filter(e -> reason.equals(e.getReason())).toList();
    }
}
