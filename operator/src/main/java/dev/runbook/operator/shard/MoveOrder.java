package dev.runbook.operator.shard;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The order in which one sharder pass carries out its changes: primaries that are not Ready first. A
 * dead member's whole share waits for its new owners while the sharder writes (at N=1000 on two
 * replicas, some 500 primaries and their secondaries: tens of seconds, docs/performance.md#sharded-replicas).
 * A Ready primary loses little by waiting; one in the middle of a failover, a restore or a switchover
 * is the one that needs an acting operator now. So primaries whose {@code Ready} condition is not
 * {@code True} (Kubernetes' condition convention; no status or no such condition counts as not Ready)
 * go first, each group in the order the pass decided it.
 */
final class MoveOrder {
    private MoveOrder() {}

    static List<LabelChange> notReadyFirst(List<LabelChange> changes, Map<String, GenericKubernetesResource> byKey) {
        List<LabelChange> first = new ArrayList<>();
        List<LabelChange> then = new ArrayList<>();
        for (LabelChange change : changes) {
            (isReady(byKey.get(change.key())) ? then : first).add(change);
        }
        first.addAll(then);
        return first;
    }

    static boolean isReady(GenericKubernetesResource primary) {
        if (primary == null || !(primary.getAdditionalProperties().get("status") instanceof Map<?, ?> status)) return false;
        if (!(status.get("conditions") instanceof List<?> conditions)) return false;
        for (Object condition : conditions) {
            if (condition instanceof Map<?, ?> c && "Ready".equals(c.get("type"))) return "True".equals(c.get("status"));
        }
        return false;
    }
}
