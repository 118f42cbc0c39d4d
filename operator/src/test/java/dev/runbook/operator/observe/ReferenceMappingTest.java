package dev.runbook.operator.observe;

import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.bundle.SecondaryKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReferenceMappingTest {
    static final SecondaryKind NODES = new SecondaryKind(new Kind("v1", "Node"), SecondaryKind.Mapping.REFERENCE, Map.of(),
            new SecondaryKind.Reference("Pod", "spec.nodeName", true));

    static Map<String, Object> pod(String name, String node) {
        Map<String, Object> spec = node == null ? Map.of() : Map.of("nodeName", node);
        return Map.of("metadata", Map.of("name", name, "namespace", "demo"), "spec", spec);
    }

    static GenericKubernetesResource node(String name) {
        GenericKubernetesResource node = new GenericKubernetesResource();
        node.setApiVersion("v1");
        node.setKind("Node");
        node.setMetadata(new ObjectMetaBuilder().withName(name).build());
        return node;
    }

    @Test
    void aCycleSeesEachNodeItsPodsRunOnOnceInNameOrderFromTheCache() {
        List<ResourceID> asked = new ArrayList<>();
        Map<String, GenericKubernetesResource> cache = Map.of("node-a", node("node-a"), "node-b", node("node-b"));

        List<GenericKubernetesResource> nodes = new ReferenceMapping(NODES).referencedBy(
                List.of(pod("pg-0", "node-b"), pod("pg-1", "node-a"), pod("pg-2", "node-b"), pod("pg-3", null), pod("pg-4", "gone")),
                id -> {
                    asked.add(id);
                    return Optional.ofNullable(cache.get(id.getName()));
                });

        assertThat(nodes).extracting(n -> n.getMetadata().getName()).containsExactly("node-a", "node-b");
        assertThat(asked).as("a cluster-scoped kind is looked up by name alone; an unscheduled pod names none")
                .containsExactly(new ResourceID("node-b", null), new ResourceID("node-a", null), new ResourceID("gone", null));
    }

    @Test
    void aNamespacedReferencedKindIsLookedUpInTheReferringObjectsNamespace() {
        SecondaryKind accounts = new SecondaryKind(new Kind("v1", "ServiceAccount"), SecondaryKind.Mapping.REFERENCE, Map.of(),
                new SecondaryKind.Reference("Pod", "spec.serviceAccountName", false));
        List<ResourceID> asked = new ArrayList<>();
        new ReferenceMapping(accounts).referencedBy(List.of(Map.of("metadata", Map.of("name", "pg-0", "namespace", "demo"),
                "spec", Map.of("serviceAccountName", "postgres"))), id -> {
                    asked.add(id);
                    return Optional.empty();
                });
        assertThat(asked).containsExactly(new ResourceID("postgres", "demo"));
    }

    @Test
    void anEventsPodIsIndexedByItsNodeWithoutBeingTurnedIntoMaps() {
        GenericKubernetesResource pod = new GenericKubernetesResource();
        pod.setApiVersion("v1");
        pod.setKind("Pod");
        pod.setMetadata(new ObjectMetaBuilder().withName("pg-0").withNamespace("demo").build());
        pod.setAdditionalProperty("spec", Map.of("nodeName", "node-a"));
        GenericKubernetesResource unscheduled = new GenericKubernetesResource();
        unscheduled.setMetadata(new ObjectMetaBuilder().withName("pg-1").withNamespace("demo").build());
        unscheduled.setAdditionalProperty("spec", Map.of());
        ReferenceMapping nodes = new ReferenceMapping(NODES);

        assertThat(nodes.indexKeys(pod, object -> { throw new AssertionError("read as a whole"); })).containsExactly("node-a");
        assertThat(nodes.indexKeys(unscheduled, object -> { throw new AssertionError("read as a whole"); })).isEmpty();

        SecondaryKind byLabel = new SecondaryKind(new Kind("v1", "ConfigMap"), SecondaryKind.Mapping.REFERENCE, Map.of(),
                new SecondaryKind.Reference("Pod", "metadata.labels.config", false));
        assertThat(new ReferenceMapping(byLabel).indexKeys(pod, object -> Map.of("metadata", Map.of("labels", Map.of("config", "pg-settings")))))
                .as("a field of the metadata, from the whole object").containsExactly("demo/pg-settings");
    }

    @Test
    void onlyAReferenceMappingHasOne() {
        assertThatThrownBy(() -> new ReferenceMapping(new SecondaryKind(new Kind("v1", "Pod"), SecondaryKind.Mapping.OWNER, Map.of())))
                .hasMessageContaining("is not mapped by reference");
    }

    @Test
    void aNodesHeartbeatStartsNoCycleButAChangeOfItsReadyConditionDoes() {
        HeartbeatFilter filter = new HeartbeatFilter();
        GenericKubernetesResource before = withReady(node("node-a"), "True", "2026-11-30T09:00:00Z");
        GenericKubernetesResource heartbeat = withReady(node("node-a"), "True", "2026-11-30T09:00:40Z");
        GenericKubernetesResource lost = withReady(node("node-a"), "Unknown", "2026-11-30T09:00:40Z");
        GenericKubernetesResource cordoned = withReady(node("node-a"), "True", "2026-11-30T09:00:00Z");
        cordoned.setAdditionalProperty("spec", Map.of("unschedulable", true));

        assertThat(filter.accept(heartbeat, before)).isFalse();
        assertThat(filter.accept(lost, before)).isTrue();
        assertThat(filter.accept(cordoned, before)).isTrue();
    }

    private static GenericKubernetesResource withReady(GenericKubernetesResource node, String status, String heartbeat) {
        node.setAdditionalProperty("status", Map.of("conditions", List.of(Map.of("type", "Ready", "status", status,
                "lastHeartbeatTime", heartbeat, "lastTransitionTime", "2026-11-30T08:00:00Z"))));
        return node;
    }
}
