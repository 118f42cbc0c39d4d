package dev.runbook.instance.observe;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import dev.runbook.instance.config.DurationText;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Reads this instance's pod, its PostgresCluster and the current primary's pod. Three GETs a pass:
 * the instance manager keeps no cache, so a restarted one resumes from what the API server says.
 */
public final class ClusterObserver {
    private final KubernetesClient client;
    private final String namespace;
    private final String podName;
    private final String clusterName;

    public ClusterObserver(KubernetesClient client, String namespace, String podName, String clusterName) {
        this.client = client;
        this.namespace = namespace;
        this.podName = podName;
        this.clusterName = clusterName;
    }

    /** The whole observation: its own pod, its cluster, and the current primary's pod when that is another instance. */
    public Observation observe() {
        Observation own = observeOwn();
        String current = own.currentPrimary();
        return current.isEmpty() || current.equals(podName) ? own : own.withCurrentPrimaryPod(peer(current));
    }

    /** Its own pod and its cluster only (two GETs): what entitles it to write, for the lease's own renewals. */
    public Observation observeOwn() {
        Pod own = client.pods().inNamespace(namespace).withName(podName).get();
        GenericKubernetesResource cluster = client.genericKubernetesResources("postgres.runbook.dev/v1alpha1", "PostgresCluster")
                .inNamespace(namespace).withName(clusterName).get();
        Map<String, Object> status = cluster == null ? Map.of() : section(cluster, "status");
        Map<String, Object> spec = cluster == null ? Map.of() : section(cluster, "spec");
        Object replication = spec.get("replication");
        boolean synchronous = replication instanceof Map<?, ?> r && Boolean.TRUE.equals(r.get("synchronous"));
        Object failover = spec.get("failover");
        Duration lease = DurationText.parse(failover instanceof Map<?, ?> f ? text(f.get("leaseDuration")) : "").orElse(Observation.DEFAULT_LEASE);
        String current = text(status.get("currentPrimary"));
        return new Observation(
                own != null,
                own == null ? "" : labels(own).getOrDefault(Observation.ROLE_LABEL, ""),
                cluster != null,
                current,
                text(status.get("targetPrimary")),
                text(status.get("promotionReason")),
                text(status.get("primaryLsn")),
                synchronous,
                null,
                lease,
                own == null ? null : leaseOf(annotations(own)),
                instances(spec.get("instances")));
    }

    private PeerPod peer(String name) {
        Pod pod = client.pods().inNamespace(namespace).withName(name).get();
        if (pod == null) {
            return PeerPod.absent(name);
        }
        Map<String, String> annotations = annotations(pod);
        boolean ready = pod.getStatus() != null && pod.getStatus().getConditions() != null
                && pod.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        return new PeerPod(name, true, pod.getMetadata().getDeletionTimestamp() != null, ready,
                labels(pod).getOrDefault(Observation.ROLE_LABEL, ""),
                annotations.getOrDefault(Observation.REPORTED_ROLE, ""),
                annotations.getOrDefault(Observation.REPLAYED_LSN, ""),
                leaseOf(annotations));
    }

    /** NAME-0 .. NAME-(n-1): the StatefulSet's pods for spec.instances. */
    private List<String> instances(Object count) {
        int n = count instanceof Number number ? number.intValue() : 0;
        return IntStream.range(0, Math.max(0, Math.min(n, 99))).mapToObj(i -> clusterName + "-" + i).toList();
    }

    private static Duration leaseOf(Map<String, String> annotations) {
        return DurationText.parse(annotations.get(Observation.LEASE_DURATION)).orElse(null);
    }

    private static Map<String, String> annotations(Pod pod) {
        return pod.getMetadata().getAnnotations() == null ? Map.of() : pod.getMetadata().getAnnotations();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> section(GenericKubernetesResource cluster, String name) {
        Object value = cluster.getAdditionalProperties().get(name);
        return value instanceof Map ? (Map<String, Object>) value : Map.of();
    }

    private static Map<String, String> labels(Pod pod) {
        return pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
    }

    private static String text(Object value) {
        return value == null ? "" : value.toString();
    }
}
