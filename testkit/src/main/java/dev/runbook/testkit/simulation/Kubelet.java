package dev.runbook.testkit.simulation;

import dev.runbook.engine.apply.Json;
import dev.runbook.engine.apply.KubeObject;
import dev.runbook.rules.fact.ObjectRef;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The kubelet of the simulated cluster: a pod's phase and its Ready condition. */
final class Kubelet {
    private final Cluster cluster;
    private final Duration readyAfter;

    Kubelet(Cluster cluster, Duration readyAfter) {
        this.cluster = cluster;
        this.readyAfter = readyAfter;
    }

    /**
     * The pod turns Running with the given readiness at {@code now}, written at once.
     *
     * @throws IllegalStateException when the pod has finished (phase Succeeded or Failed)
     */
    void setReadiness(ObjectRef ref, boolean ready, Instant now, String what) {
        Objects.requireNonNull(now, "now");
        Map<String, Object> pod = ObjectFields.existing(cluster, ref, "Pod", what);
        String phase = Json.stringAt(Json.mapAt(pod, "status"), "phase");
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
            throw new IllegalStateException(what + ": " + ref + " has finished (phase " + phase + ")");
        }
        writePodStatus(pod, "Running", ready, now);
    }

    boolean syncPods(Instant now) {
        boolean changed = false;
        for (Map<String, Object> pod : cluster.list("Pod")) {
            changed |= syncPod(pod, now);
        }
        return changed;
    }

    /**
     * The kubelet: a pod that is starting (phase Pending, or neither a phase nor a Ready condition) is
     * Pending and not ready until {@code readyAfter} past its creation, then Running and Ready (the
     * transition time is the moment it became ready, not the time of the settle). A pod that has
     * finished (Succeeded, Failed) keeps its phase and is not ready. Any other pod (Running, or given
     * with a Ready condition) is left as it is: its readiness changes only by {@link SimulatedControllers#podReady} and
     * {@link SimulatedControllers#podNotReady}.
     */
    private boolean syncPod(Map<String, Object> pod, Instant now) {
        Map<String, Object> status = Json.mapAt(pod, "status");
        String phase = Json.stringAt(status, "phase");
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
            return writePodStatus(pod, phase, false, now);
        }
        boolean starting = "Pending".equals(phase) || (phase == null && ObjectFields.readyCondition(pod) == null);
        if (!starting) {
            return false;
        }
        Instant created = ObjectFields.creationTime(pod, now);
        Instant readyAt = created.plus(readyAfter);
        return now.isBefore(readyAt)
                ? writePodStatus(pod, "Pending", false, created)
                : writePodStatus(pod, "Running", true, readyAt);
    }

    /**
     * Sets the pod's phase and its Ready condition; the condition's lastTransitionTime becomes
     * {@code since} only when its status changes. Writes nothing when both already read so.
     */
    private boolean writePodStatus(Map<String, Object> pod, String phase, boolean ready, Instant since) {
        ObjectRef ref = KubeObject.refOf(pod);
        Map<String, Object> changed = Json.copyMap(pod, "pod");
        Map<String, Object> status = Json.child(changed, "status", ref + " status");
        status.put("phase", phase);
        List<Object> conditions = ObjectFields.conditions(status, ref);
        Map<String, Object> condition = null;
        for (Object item : conditions) {
            if (item instanceof Map<?, ?> map && "Ready".equals(map.get("type"))) {
                @SuppressWarnings("unchecked")
                Map<String, Object> found = (Map<String, Object>) map;
                condition = found;
                break;
            }
        }
        if (condition == null) {
            condition = new LinkedHashMap<>();
            condition.put("type", "Ready");
            conditions.add(condition);
        }
        String readyStatus = ready ? "True" : "False";
        if (!readyStatus.equals(condition.get("status"))) {
            condition.put("status", readyStatus);
            condition.put("lastTransitionTime", since.toString());
        }
        if (Json.same(changed, pod)) return false;
        cluster.put(changed);
        return true;
    }
}
