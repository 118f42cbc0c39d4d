package dev.runbook.testkit.scenario;

import dev.runbook.engine.apply.MissingObjectException;
import dev.runbook.testkit.simulation.Simulator;
import dev.runbook.rules.fact.Resource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NodeChangesTest {
    private static final Instant T0 = Instant.parse("2026-11-30T09:00:00Z");

    private static Simulator withNode(String name) {
        Simulator sim = new Simulator(T0);
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("apiVersion", "v1");
        node.put("kind", "Node");
        node.put("metadata", Map.of("name", name));
        node.put("status", Map.of("conditions", List.of(Map.of("type", "Ready", "status", "True",
                "lastTransitionTime", "2026-11-30T07:00:00Z"))));
        sim.create(node);
        return sim;
    }

    private static Resource node(Simulator sim, String name) {
        return new Resource(sim.get(NodeChanges.ref(name)).orElseThrow());
    }

    @Test
    void nodeNotReadyTurnsReadyUnknownNowAndNodeReadyBringsItBack() {
        Simulator sim = withNode("node-a");
        sim.advance(Duration.ofSeconds(10));
        NodeChanges.apply("nodeNotReady", sim, "node-a");
        Resource lost = node(sim, "node-a");
        assertThat(lost.conditionStatus("Ready")).isEqualTo("Unknown");
        assertThat(lost.condition("Ready").getLastTransitionTime()).isEqualTo(T0.plusSeconds(10));
        assertThat(lost.getNamespace()).isEmpty();

        sim.advance(Duration.ofSeconds(30));
        assertThat(node(sim, "node-a").conditionStatus("Ready")).as("a lost node stays lost").isEqualTo("Unknown");
        NodeChanges.apply("nodeReady", sim, "node-a");
        assertThat(node(sim, "node-a").isConditionTrue("Ready")).isTrue();
    }

    @Test
    void aMissingNodeIsNamed() {
        Simulator sim = withNode("node-a");
        assertThatThrownBy(() -> NodeChanges.apply("nodeNotReady", sim, "node-x"))
                .isInstanceOf(MissingObjectException.class).hasMessageContaining("Node node-x");
    }
}
