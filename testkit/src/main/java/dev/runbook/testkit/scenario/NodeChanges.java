package dev.runbook.testkit.scenario;

import dev.runbook.testkit.simulation.Simulator;
import dev.runbook.rules.fact.ObjectRef;

import java.util.List;
import java.util.Map;

/**
 * Drill changes to a simulated node (a Node object of the state): {@code nodeNotReady} is what node
 * loss looks like from the API server — the node controller sets the Ready condition to Unknown once
 * the kubelet stops reporting, while the pods on it keep their last status — and {@code nodeReady}
 * brings it back. Nodes are cluster-scoped: the change names no namespace.
 */
final class NodeChanges {
    static final List<String> TYPES = List.of("nodeNotReady", "nodeReady");

    private NodeChanges() {}

    static ObjectRef ref(String name) {
        return ObjectRef.of("v1", "Node", null, name);
    }

    static void apply(String type, Simulator simulator, String node) {
        boolean ready = type.equals("nodeReady");
        simulator.setField(ref(node), "status.conditions", List.of(Map.of(
                "type", "Ready",
                "status", ready ? "True" : "Unknown",
                "reason", ready ? "KubeletReady" : "NodeStatusUnknown",
                "message", ready ? "kubelet is posting ready status" : "Kubelet stopped posting node status.",
                "lastTransitionTime", simulator.now().toString())));
    }
}
