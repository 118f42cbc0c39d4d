package dev.runbook.operator.shard;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MoveOrderTest {
    @Test
    void primariesThatAreNotReadyMoveFirstEachGroupInTheDecidedOrder() {
        Map<String, GenericKubernetesResource> byKey = new LinkedHashMap<>();
        byKey.put("ready-1", primary(Map.of("conditions", List.of(condition("Ready", "True")))));
        byKey.put("failing", primary(Map.of("conditions", List.of(condition("Failover", "True"), condition("Ready", "False")))));
        byKey.put("ready-2", primary(Map.of("conditions", List.of(condition("Ready", "True")))));
        byKey.put("new", primary(null));
        byKey.put("unknown", primary(Map.of("conditions", List.of(condition("Ready", "Unknown")))));
        List<LabelChange> decided = byKey.keySet().stream().<LabelChange>map(key -> new LabelChange.Assign(key, "a")).toList();

        assertThat(MoveOrder.notReadyFirst(decided, byKey)).extracting(LabelChange::key)
                .containsExactly("failing", "new", "unknown", "ready-1", "ready-2");
    }

    @Test
    void readyIsTheReadyConditionsStatusNotAnotherConditions() {
        assertThat(MoveOrder.isReady(primary(Map.of("conditions", List.of(condition("Consistent", "True")))))).isFalse();
        assertThat(MoveOrder.isReady(primary(Map.of("phase", "Healthy")))).isFalse();
        assertThat(MoveOrder.isReady(primary(Map.of("conditions", List.of(condition("Consistent", "False"), condition("Ready", "True"))))))
                .isTrue();
    }

    private static Map<String, Object> condition(String type, String status) {
        return Map.of("type", type, "status", status);
    }

    private static GenericKubernetesResource primary(Map<String, Object> status) {
        GenericKubernetesResource primary = new GenericKubernetesResource();
        primary.setMetadata(new ObjectMetaBuilder().withName("pg").withNamespace("default").build());
        if (status != null) primary.setAdditionalProperty("status", status);
        return primary;
    }
}
