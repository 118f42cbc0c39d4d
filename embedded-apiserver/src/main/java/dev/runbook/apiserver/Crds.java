package dev.runbook.apiserver;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Installing a CRD from a bundle's YAML file, as the sandbox and the integration tests do. */
public final class Crds {
    private Crds() {}

    /** Creates or updates the CRD in {@code file} by server-side apply; returns it as read from the file. */
    public static CustomResourceDefinition apply(KubernetesClient client, Path file, String fieldManager) {
        CustomResourceDefinition crd;
        try (var in = Files.newInputStream(file)) {
            crd = client.apiextensions().v1().customResourceDefinitions().load(in).item();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        client.apiextensions().v1().customResourceDefinitions().resource(crd).fieldManager(fieldManager)
                .forceConflicts().serverSideApply();
        return crd;
    }
}
