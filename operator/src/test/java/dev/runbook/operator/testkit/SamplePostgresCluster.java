package dev.runbook.operator.testkit;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The postgres-cluster bundle's sample cluster {@value #NAME} (samples/cluster.yaml) in a test's
 * namespace, for the integration tests that run the shipped runbook: it is created with its spec changed
 * as the test says, read back as a map, its pods' role labels and its events listed, and its pods
 * annotated as their instance managers would annotate them.
 */
public final class SamplePostgresCluster {
    public static final Path BUNDLE = Path.of("../runbooks/postgres-cluster");
    public static final String NAME = "pg";
    /** The annotation an instance manager reports its replayed WAL position in. */
    public static final String LSN = "postgres.runbook.dev/replayed-lsn";
    /** How long a test waits for a new cluster to bootstrap to Healthy: three pods made and run one after another. */
    public static final Duration BOOTSTRAP = Duration.ofSeconds(90);

    private final KubernetesClient client;
    private final String namespace;

    public SamplePostgresCluster(KubernetesClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    /** Creates the sample in the namespace, its spec changed as given. */
    public void create(Consumer<Map<String, Object>> changeSpec) {
        GenericKubernetesResource sample;
        try (InputStream in = Files.newInputStream(BUNDLE.resolve("samples/cluster.yaml"))) {
            sample = client.getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        sample.getMetadata().setNamespace(namespace);
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = new LinkedHashMap<>((Map<String, Object>) sample.getAdditionalProperties().get("spec"));
        changeSpec.accept(spec);
        sample.getAdditionalProperties().put("spec", spec);
        client.genericKubernetesResources("postgres.runbook.dev/v1alpha1", "PostgresCluster").inNamespace(namespace)
                .resource(sample).create();
    }

    /** The cluster as the API server has it now, or null. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> get() {
        GenericKubernetesResource pg = client.genericKubernetesResources("postgres.runbook.dev/v1alpha1", "PostgresCluster")
                .inNamespace(namespace).withName(NAME).get();
        return pg == null ? null : client.getKubernetesSerialization().convertValue(pg, Map.class);
    }

    /**
     * Plays the instance managers' reports (docs/runbooks/postgres-cluster.md, the contract), where no
     * instance manager runs (kwok, the simulated controllers): the pod named in status.currentPrimary and
     * labelled primary reports it runs as primary; a replica, and a fenced pod that is no longer the
     * primary nor the target (it has stopped and rewound), report replica. Returns the map of
     * {@link #get()}, for use inside a poll. The target of a promotion is left to the test.
     */
    public Map<String, Object> getReportingRoles() {
        Map<String, Object> cluster = get();
        if (cluster == null) return null;
        Object status = cluster.get("status");
        String current = status instanceof Map<?, ?> s && s.get("currentPrimary") != null ? String.valueOf(s.get("currentPrimary")) : "";
        String target = status instanceof Map<?, ?> s && s.get("targetPrimary") != null ? String.valueOf(s.get("targetPrimary")) : "";
        for (var pod : client.pods().inNamespace(namespace).list().getItems()) {
            String name = pod.getMetadata().getName();
            String role = pod.getMetadata().getLabels() == null ? null : pod.getMetadata().getLabels().get("postgres.runbook.dev/role");
            String reported = pod.getMetadata().getAnnotations() == null ? null
                    : pod.getMetadata().getAnnotations().get("postgres.runbook.dev/reported-role");
            String reports = "primary".equals(role) && name.equals(current) ? "primary"
                    : ("replica".equals(role) || "fenced".equals(role) && !name.equals(current)) && !name.equals(target) ? "replica" : null;
            if (reports != null && !reports.equals(reported)) annotatePod(name, "postgres.runbook.dev/reported-role", reports);
        }
        return cluster;
    }

    /** Each pod of the namespace as {@code name=role label}. */
    public List<String> roles() {
        return client.pods().inNamespace(namespace).list().getItems().stream()
                .map(p -> p.getMetadata().getName() + "=" + p.getMetadata().getLabels().get("postgres.runbook.dev/role"))
                .toList();
    }

    /** The events with this reason about the cluster. */
    public List<Event> events(String reason) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> NAME.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason()))
                .toList();
    }

    /** What the instance manager in the pod does: a merge patch of one annotation. */
    public void annotatePod(String pod, String key, String value) {
        MergePatches.merge(client, client.pods().inNamespace(namespace).withName(pod),
                Map.of("metadata", Map.of("annotations", Map.of(key, value))));
    }
}
