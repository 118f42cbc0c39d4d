package dev.runbook.operator.testkit;

import dev.runbook.operator.cli.ProjectFiles;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;

/**
 * What docs/instance-manager.md#permissions asks an administrator to do in every namespace that runs
 * PostgresClusters: apply deploy/postgres/instance-rbac.yaml, the ServiceAccount the StatefulSet's pods
 * run as and its Role. Without it a real API server refuses the pods (the ServiceAccount admission
 * plugin: "error looking up service account"); the mock server does not check.
 */
public final class InstanceAccounts {
    private InstanceAccounts() {}

    public static void prepare(KubernetesClient client, String namespace) {
        try (InputStream in = Files.newInputStream(ProjectFiles.of("deploy/postgres/instance-rbac.yaml"))) {
            for (HasMetadata object : client.load(in).items()) {
                client.resource(object).inNamespace(namespace).createOr(existing -> existing.update());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
