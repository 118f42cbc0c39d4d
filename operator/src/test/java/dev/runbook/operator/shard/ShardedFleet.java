package dev.runbook.operator.shard;

import dev.runbook.operator.testkit.MergePatches;
import dev.runbook.operator.testkit.SamplePostgresCluster;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The PostgresClusters of {@link ShardsE2E} on testenv's control plane, and what they need there beside
 * the pool testenv/up makes (60 volumes, one node of 500 pods): a volume bound in advance to each claim,
 * and a kwok node of their own for room. All but one cluster have one instance; the {@link #VICTIM} has
 * two, so that it can fail over. Read back: phases, owners ({@value ShardLabels#SHARD}), drains.
 */
final class ShardedFleet {
    static final String API_VERSION = "postgres.runbook.dev/v1alpha1";
    static final String KIND = "PostgresCluster";
    static final String VICTIM = "pg-000";
    static final String FAILOVER_DELAY = "5s";
    private static final String LABEL = "runbook.dev/shards-e2e";

    private final KubernetesClient client;
    private final String namespace;
    private final int count;
    private final String node;

    ShardedFleet(KubernetesClient client, String namespace, int count) {
        this.client = client;
        this.namespace = namespace;
        this.count = count;
        this.node = "shards-" + namespace;
    }

    static String name(int i) { return String.format(Locale.ROOT, "pg-%03d", i); }

    static int instances(String name) { return VICTIM.equals(name) ? 2 : 1; }

    /** The node (managed by kwok, which testenv/up runs for nodes annotated so), the volumes, then the clusters. */
    void create() {
        Node room = new NodeBuilder().withNewMetadata().withName(node).addToAnnotations("kwok.x-k8s.io/node", "fake")
                .addToLabels("kubernetes.io/hostname", node).addToLabels("type", "kwok").addToLabels(LABEL, namespace).endMetadata()
                .withNewSpec().endSpec().withNewStatus()
                .addToCapacity(Map.of("cpu", new Quantity("64"), "memory", new Quantity("256Gi"), "pods", new Quantity(String.valueOf(count + 50))))
                .addToAllocatable(Map.of("cpu", new Quantity("64"), "memory", new Quantity("256Gi"), "pods", new Quantity(String.valueOf(count + 50))))
                .endStatus().build();
        client.nodes().resource(room).create();
        for (int i = 0; i < count; i++) {
            String cluster = name(i);
            for (int ordinal = 0; ordinal < instances(cluster); ordinal++) {
                String claim = "data-" + cluster + "-" + ordinal;
                client.persistentVolumes().resource(new PersistentVolumeBuilder().withNewMetadata().withName(namespace + "-" + claim)
                        .addToLabels(LABEL, namespace).endMetadata().withNewSpec()
                        .addToCapacity("storage", new Quantity("10Gi")).withAccessModes("ReadWriteOnce")
                        .withPersistentVolumeReclaimPolicy("Retain").withNewHostPath().withPath("/tmp/" + namespace + "/" + claim).endHostPath()
                        .withNewClaimRef().withNamespace(namespace).withName(claim).endClaimRef().endSpec().build()).create();
            }
        }
        for (int i = 0; i < count; i++) {
            String cluster = name(i);
            client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).resource(new GenericKubernetesResourceBuilder()
                    .withApiVersion(API_VERSION).withKind(KIND).withNewMetadata().withName(cluster).endMetadata()
                    .addToAdditionalProperties("spec", Map.of("instances", instances(cluster), "image", "postgres:16.4",
                            "storage", Map.of("size", "1Gi"), "failoverDelay", FAILOVER_DELAY)).build()).create();
        }
    }

    /** Removes the node and the volumes (the namespace, with the clusters, is the test kit's to delete). */
    void delete() {
        client.nodes().withLabel(LABEL, namespace).delete();
        client.persistentVolumes().withLabel(LABEL, namespace).delete();
    }

    List<GenericKubernetesResource> clusters() {
        return client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).list().getItems();
    }

    GenericKubernetesResource get(String name) {
        return client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).withName(name).get();
    }

    long healthy() {
        return clusters().stream().filter(c -> "Healthy".equals(status(c, "phase"))).count();
    }

    /** Each cluster's hash key to its owner, or to "" when unassigned. */
    Map<String, String> owners() {
        Map<String, String> owners = new HashMap<>();
        for (GenericKubernetesResource cluster : clusters()) {
            String owner = labels(cluster).get(ShardLabels.SHARD);
            owners.put(keyOf(cluster.getMetadata().getName()), owner == null ? "" : owner);
        }
        return owners;
    }

    /**
     * What is left before the clusters are spread as the ring of {@code live} says: clusters with no
     * owner, an owner that is not its ring owner, or a drain label; empty when settled.
     */
    List<String> unsettled(Set<String> live) {
        HashRing ring = HashRing.of(live);
        return clusters().stream().filter(cluster -> {
            Map<String, String> labels = labels(cluster);
            String key = keyOf(cluster.getMetadata().getName());
            return labels.containsKey(ShardLabels.DRAIN)
                    || !ring.ownerOf(key).orElseThrow().equals(labels.get(ShardLabels.SHARD));
        }).map(cluster -> cluster.getMetadata().getName() + "=" + labels(cluster)).toList();
    }

    String keyOf(String name) {
        return ShardLabels.keyOf("postgres.runbook.dev", KIND, namespace, name);
    }

    void cordonNodes(boolean cordoned) {
        for (Node each : client.nodes().list().getItems()) {
            MergePatches.merge(client, client.nodes().withName(each.getMetadata().getName()),
                    Map.of("spec", Map.of("unschedulable", cordoned)));
        }
    }

    void deletePod(String pod) {
        client.pods().inNamespace(namespace).withName(pod).delete();
    }

    String podRole(String pod) {
        var found = client.pods().inNamespace(namespace).withName(pod).get();
        return found == null || found.getMetadata().getLabels() == null ? null
                : found.getMetadata().getLabels().get("postgres.runbook.dev/role");
    }

    /** What the pod's instance manager would report: the role it runs as. */
    void reportRole(String pod, String role) {
        new SamplePostgresCluster(client, namespace).annotatePod(pod, "postgres.runbook.dev/reported-role", role);
    }

    static Map<String, String> labels(GenericKubernetesResource cluster) {
        return cluster.getMetadata().getLabels() == null ? Map.of() : cluster.getMetadata().getLabels();
    }

    @SuppressWarnings("unchecked")
    static String status(GenericKubernetesResource cluster, String field) {
        Object status = cluster == null ? null : cluster.getAdditionalProperties().get("status");
        Object value = status instanceof Map<?, ?> map ? ((Map<String, Object>) map).get(field) : null;
        return value == null ? null : String.valueOf(value);
    }
}
