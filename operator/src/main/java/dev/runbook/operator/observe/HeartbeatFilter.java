package dev.runbook.operator.observe;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Which updates of a referenced object (a Node) start the cycles of the primaries that use it: any
 * change but a heartbeat. A kubelet rewrites its Node's conditions with a new
 * {@code lastHeartbeatTime} every few seconds to minutes while nothing else changes; each would
 * otherwise reconcile every primary with a pod on that node for nothing.
 */
public final class HeartbeatFilter implements OnUpdateFilter<GenericKubernetesResource> {
    @Override
    public boolean accept(GenericKubernetesResource updated, GenericKubernetesResource old) {
        if (!Objects.equals(updated.getMetadata().getLabels(), old.getMetadata().getLabels())
                || !Objects.equals(updated.getMetadata().getAnnotations(), old.getMetadata().getAnnotations())
                || updated.getMetadata().getDeletionTimestamp() != null) {
            return true;
        }
        // read once each: a cached object (CompactResource) makes its properties anew on every call
        Map<String, Object> now = updated.getAdditionalProperties(), before = old.getAdditionalProperties();
        return !Objects.equals(now.get("spec"), before.get("spec"))
                || !Objects.equals(withoutHeartbeats(now.get("status")), withoutHeartbeats(before.get("status")));
    }

    /** The status with every {@code lastHeartbeatTime} of its conditions left out. */
    static Object withoutHeartbeats(Object status) {
        if (!(status instanceof Map<?, ?> map) || !(map.get("conditions") instanceof List<?> conditions)) return status;
        Map<Object, Object> copy = new java.util.LinkedHashMap<>(map);
        copy.put("conditions", conditions.stream().map(c -> {
            if (!(c instanceof Map<?, ?> condition)) return c;
            Map<Object, Object> rest = new java.util.LinkedHashMap<>(condition);
            rest.remove("lastHeartbeatTime");
            return rest;
        }).toList());
        return copy;
    }
}
