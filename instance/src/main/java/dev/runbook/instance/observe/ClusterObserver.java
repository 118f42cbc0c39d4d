package dev.runbook.instance.observe;

import dev.runbook.postgres.contract.PostgresContract;
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
        GenericKubernetesResource cluster = client.genericKubernetesResources(PostgresContract.API_VERSION, PostgresContract.KIND)
                .inNamespace(namespace).withName(clusterName).get();
        Map<String, Object> fields = cluster == null ? Map.of() : cluster.getAdditionalProperties();
        Duration lease = DurationText.parse(text(at(fields, PostgresContract.LEASE_DURATION_FIELD))).orElse(Observation.DEFAULT_LEASE);
        String current = text(at(fields, PostgresContract.CURRENT_PRIMARY));
        return new Observation(
                own != null,
                own == null ? "" : labels(own).getOrDefault(PostgresContract.ROLE_LABEL, ""),
                cluster != null,
                current,
                text(at(fields, PostgresContract.TARGET_PRIMARY)),
                text(at(fields, PostgresContract.PROMOTION_REASON)),
                text(at(fields, PostgresContract.PRIMARY_LSN)),
                Boolean.TRUE.equals(at(fields, PostgresContract.SYNCHRONOUS)),
                null,
                lease,
                own == null ? null : leaseOf(annotations(own)),
                instances(at(fields, PostgresContract.INSTANCES)));
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
                labels(pod).getOrDefault(PostgresContract.ROLE_LABEL, ""),
                annotations.getOrDefault(PostgresContract.REPORTED_ROLE, ""),
                annotations.getOrDefault(PostgresContract.REPLAYED_LSN, ""),
                leaseOf(annotations));
    }

    /** NAME-0 .. NAME-(n-1): the StatefulSet's pods for spec.instances. */
    private List<String> instances(Object count) {
        int n = count instanceof Number number ? number.intValue() : 0;
        return IntStream.range(0, Math.max(0, Math.min(n, 99))).mapToObj(i -> clusterName + "-" + i).toList();
    }

    private static Duration leaseOf(Map<String, String> annotations) {
        return DurationText.parse(annotations.get(PostgresContract.LEASE_DURATION)).orElse(null);
    }

    private static Map<String, String> annotations(Pod pod) {
        return pod.getMetadata().getAnnotations() == null ? Map.of() : pod.getMetadata().getAnnotations();
    }

    /** The value at a dotted path of the cluster's fields ({@code spec.failover.leaseDuration}), or null. */
    private static Object at(Map<String, Object> fields, String path) {
        Object value = fields;
        for (String name : path.split("\\.")) {
            value = value instanceof Map<?, ?> map ? map.get(name) : null;
        }
        return value;
    }

    private static Map<String, String> labels(Pod pod) {
        return pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
    }

    private static String text(Object value) {
        return value == null ? "" : value.toString();
    }
}
