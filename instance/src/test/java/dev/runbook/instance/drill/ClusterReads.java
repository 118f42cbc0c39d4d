package dev.runbook.instance.drill;

import dev.runbook.postgres.contract.PostgresContract;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;

/** What the drills read back from the control plane: a PostgresCluster's status, a pod's labels and annotations ("" when absent). */
public record ClusterReads(KubernetesClient client, String namespace) {

    @SuppressWarnings("unchecked")
    public String status(String cluster, String field) {
        GenericKubernetesResource pg = client.genericKubernetesResources(PostgresContract.API_VERSION, PostgresContract.KIND)
                .inNamespace(namespace).withName(cluster).get();
        Object status = pg == null ? null : pg.getAdditionalProperties().get("status");
        Object value = status instanceof Map ? ((Map<String, Object>) status).get(field) : null;
        return value == null ? "" : value.toString();
    }

    public String podLabel(String pod, String key) {
        Pod p = client.pods().inNamespace(namespace).withName(pod).get();
        return p == null || p.getMetadata().getLabels() == null ? "" : p.getMetadata().getLabels().getOrDefault(key, "");
    }

    public String podAnnotation(String pod, String key) {
        Pod p = client.pods().inNamespace(namespace).withName(pod).get();
        return p == null || p.getMetadata().getAnnotations() == null ? "" : p.getMetadata().getAnnotations().getOrDefault(key, "");
    }
}
