package dev.runbook.testkit.simulation;

import dev.runbook.engine.apply.Json;
import dev.runbook.engine.apply.KubeObject;
import dev.runbook.rules.fact.ObjectRef;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static dev.runbook.testkit.simulation.SimulatedControllers.POD_INDEX_LABEL;
import static dev.runbook.testkit.simulation.SimulatedControllers.POD_NAME_LABEL;
import static dev.runbook.testkit.simulation.SimulatedControllers.REVISION_LABEL;
import static dev.runbook.testkit.simulation.SimulatedControllers.STATEFULSET_CONTROLLER;

/**
 * The StatefulSet controller of the simulated cluster: pods {@code <set>-<ordinal>} created and deleted
 * to match {@code spec.replicas}, failed pods created again, a rolling update one pod at a time once
 * the others are ready, orphans adopted, and the StatefulSet's status.
 */
final class StatefulSetController {
    private final Cluster cluster;

    StatefulSetController(Cluster cluster) {
        this.cluster = cluster;
    }

    boolean syncStatefulSets() {
        boolean changed = false;
        for (Map<String, Object> set : cluster.list("StatefulSet")) {
            changed |= syncStatefulSet(set);
        }
        return changed;
    }

    private boolean syncStatefulSet(Map<String, Object> set) {
        ObjectRef setRef = KubeObject.refOf(set);
        String name = setRef.getName();
        Map<String, Object> spec = Json.mapAt(set, "spec");
        int replicas = ObjectFields.intAt(spec, "replicas", 1, setRef + " spec.replicas");
        Map<String, Object> template = Json.mapAt(spec, "template");
        String revision = name + "-" + Json.hash(template == null ? Map.of() : template);
        boolean changed = adoptOrphans(set, revision);

        TreeMap<Integer, Map<String, Object>> pods = podsOf(set);
        // Scale down, highest ordinal first.
        for (Integer ordinal : pods.descendingKeySet()) {
            if (ordinal >= replicas) {
                deletePod(setRef, pods.get(ordinal));
                changed = true;
            }
        }
        TreeMap<Integer, Map<String, Object>> kept = new TreeMap<>(pods.headMap(replicas));
        // A pod that failed or finished is deleted and created again.
        for (Map.Entry<Integer, Map<String, Object>> entry : new ArrayList<>(kept.entrySet())) {
            String phase = Json.stringAt(Json.mapAt(entry.getValue(), "status"), "phase");
            if ("Failed".equals(phase) || "Succeeded".equals(phase)) {
                cluster.recordEvent(setRef, "Warning", "RecreatingFailedPod", "StatefulSet " + setRef.getNamespace()
                        + "/" + name + " is recreating failed Pod " + ObjectFields.podName(entry.getValue()), STATEFULSET_CONTROLLER);
                deletePod(setRef, entry.getValue());
                kept.remove(entry.getKey());
                changed = true;
            }
        }
        // Scale up, lowest ordinal first.
        for (int ordinal = 0; ordinal < replicas; ordinal++) {
            if (!kept.containsKey(ordinal) && createPod(set, ordinal, template, revision)) {
                changed = true;
            }
        }
        // Rolling update: the highest outdated ordinal, once every other pod is ready.
        // (Only in a round that created or deleted nothing else, so it sees the pods as they are.)
        if (!changed && !"OnDelete".equals(Json.stringAt(Json.mapAt(spec, "updateStrategy"), "type"))) {
            int partition = ObjectFields.intAt(Json.mapAt(Json.mapAt(spec, "updateStrategy"), "rollingUpdate"), "partition", 0,
                    setRef + " spec.updateStrategy.rollingUpdate.partition");
            for (int ordinal = replicas - 1; ordinal >= Math.max(partition, 0); ordinal--) {
                Map<String, Object> pod = kept.get(ordinal);
                if (pod == null || revision.equals(ObjectFields.label(pod, REVISION_LABEL))) continue;
                if (othersReady(kept, ordinal, replicas)) {
                    deletePod(setRef, pod);
                    createPod(set, ordinal, template, revision);
                    changed = true;
                }
                break;
            }
        }
        changed |= writeStatefulSetStatus(set, replicas, revision, podsOf(set));
        return changed;
    }

    /**
     * Adopts the pods named {@code <set>-<ordinal>} in its namespace that no controller owns and whose
     * labels match {@code spec.selector.matchLabels} (matchExpressions are not evaluated): adds the
     * controller owner reference and, when the pod has none, the revision label of the current
     * template, so a pod written by hand in a scenario counts as up to date.
     */
    private boolean adoptOrphans(Map<String, Object> set, String revision) {
        ObjectRef setRef = KubeObject.refOf(set);
        Map<String, Object> matchLabels = Json.mapAt(Json.mapAt(Json.mapAt(set, "spec"), "selector"), "matchLabels");
        boolean changed = false;
        for (Map<String, Object> pod : cluster.list("Pod")) {
            if (!ObjectFields.namespace(pod).equals(setRef.getNamespace()) || ObjectFields.controllerUid(pod) != null
                    || ordinalOf(ObjectFields.podName(pod), setRef.getName()) == null) {
                continue;
            }
            Map<String, Object> labels = Json.mapAt(Json.mapAt(pod, "metadata"), "labels");
            if (matchLabels != null && !matchLabels.isEmpty()) {
                boolean matches = labels != null;
                for (Map.Entry<String, Object> wanted : matchLabels.entrySet()) {
                    matches = matches && Json.same(wanted.getValue(), labels.get(wanted.getKey()));
                }
                if (!matches) continue;
            }
            Map<String, Object> adopted = Json.copyMap(pod, "pod");
            Map<String, Object> metadata = Json.child(adopted, "metadata", "metadata");
            Object owners = metadata.get("ownerReferences");
            List<Object> ownerReferences = owners instanceof List<?> list ? new ArrayList<>(list) : new ArrayList<>();
            ownerReferences.add(ownerReference(set));
            metadata.put("ownerReferences", ownerReferences);
            Json.child(metadata, "labels", "metadata.labels").putIfAbsent(REVISION_LABEL, revision);
            cluster.put(adopted);
            changed = true;
        }
        return changed;
    }

    /** The ordinal of a pod named {@code <set>-<ordinal>}, or null. */
    private static Integer ordinalOf(String podName, String setName) {
        String prefix = setName + "-";
        if (podName == null || !podName.startsWith(prefix)) return null;
        String digits = podName.substring(prefix.length());
        if (digits.isEmpty() || digits.length() > 9 || !digits.chars().allMatch(Character::isDigit)) return null;
        if (digits.length() > 1 && digits.startsWith("0")) return null;
        return Integer.parseInt(digits);
    }

    private static Map<String, Object> ownerReference(Map<String, Object> set) {
        return ObjectFields.controllerReference(set);
    }

    private static boolean othersReady(Map<Integer, Map<String, Object>> pods, int except, int replicas) {
        for (int ordinal = 0; ordinal < replicas; ordinal++) {
            if (ordinal == except) continue;
            Map<String, Object> pod = pods.get(ordinal);
            if (pod == null || !ObjectFields.isReady(pod)) return false;
        }
        return true;
    }

    /** The pods the StatefulSet controls, by ordinal; a pod whose name has no ordinal counts as MAX_VALUE. */
    private TreeMap<Integer, Map<String, Object>> podsOf(Map<String, Object> set) {
        String uid = ObjectFields.uid(set);
        String setName = KubeObject.refOf(set).getName();
        TreeMap<Integer, Map<String, Object>> pods = new TreeMap<>();
        int unnumbered = Integer.MAX_VALUE;
        for (Map<String, Object> pod : cluster.list("Pod")) {
            if (!ObjectFields.namespace(pod).equals(ObjectFields.namespace(set)) || !uid.equals(ObjectFields.controllerUid(pod))) continue;
            Integer ordinal = ordinalOf(ObjectFields.podName(pod), setName);
            pods.put(ordinal == null ? unnumbered-- : ordinal, pod);
        }
        return pods;
    }

    private boolean createPod(Map<String, Object> set, int ordinal, Map<String, Object> template, String revision) {
        ObjectRef setRef = KubeObject.refOf(set);
        String podName = setRef.getName() + "-" + ordinal;
        ObjectRef podRef = ObjectRef.of("v1", "Pod", setRef.getNamespace(), podName);
        if (cluster.get(podRef).isPresent()) {
            return false; // the name belongs to a pod this StatefulSet does not control: wait for it to go
        }
        Map<String, Object> templateMetadata = Json.mapAt(template, "metadata");
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", podName);
        if (!setRef.getNamespace().isEmpty()) metadata.put("namespace", setRef.getNamespace());
        Map<String, Object> labels = new LinkedHashMap<>();
        Map<String, Object> templateLabels = Json.mapAt(templateMetadata, "labels");
        if (templateLabels != null) labels.putAll(templateLabels);
        labels.put(REVISION_LABEL, revision);
        labels.put(POD_NAME_LABEL, podName);
        labels.put(POD_INDEX_LABEL, Integer.toString(ordinal));
        metadata.put("labels", labels);
        Map<String, Object> annotations = Json.mapAt(templateMetadata, "annotations");
        if (annotations != null && !annotations.isEmpty()) metadata.put("annotations", annotations);
        metadata.put("ownerReferences", new ArrayList<>(List.of(ownerReference(set))));
        Map<String, Object> spec = new LinkedHashMap<>();
        Map<String, Object> templateSpec = Json.mapAt(template, "spec");
        if (templateSpec != null) spec.putAll(templateSpec);
        spec.put("hostname", podName);
        Object serviceName = Json.mapAt(set, "spec").get("serviceName");
        if (serviceName != null) spec.put("subdomain", serviceName);
        Map<String, Object> pod = new LinkedHashMap<>();
        pod.put("apiVersion", "v1");
        pod.put("kind", "Pod");
        pod.put("metadata", metadata);
        pod.put("spec", spec);
        cluster.put(Json.copyMap(pod, "pod"));
        cluster.recordEvent(setRef, "Normal", "SuccessfulCreate",
                "create Pod " + podName + " in StatefulSet " + setRef.getName() + " successful", STATEFULSET_CONTROLLER);
        return true;
    }

    private void deletePod(ObjectRef setRef, Map<String, Object> pod) {
        cluster.delete(KubeObject.refOf(pod));
        cluster.recordEvent(setRef, "Normal", "SuccessfulDelete",
                "delete Pod " + ObjectFields.podName(pod) + " in StatefulSet " + setRef.getName() + " successful", STATEFULSET_CONTROLLER);
    }

    private boolean writeStatefulSetStatus(Map<String, Object> set, int replicas, String revision,
                                           TreeMap<Integer, Map<String, Object>> pods) {
        Map<String, Object> current = cluster.get(KubeObject.refOf(set)).orElse(set);
        Map<String, Object> changed = Json.copyMap(current, "statefulset");
        Map<String, Object> status = Json.child(changed, "status", "status");
        int ready = 0;
        int updated = 0;
        for (Map<String, Object> pod : pods.values()) {
            if (ObjectFields.isReady(pod)) ready++;
            if (revision.equals(ObjectFields.label(pod, REVISION_LABEL))) updated++;
        }
        String currentRevision = Json.stringAt(status, "currentRevision");
        if (currentRevision == null || (updated == replicas && ready == replicas && pods.size() == replicas)) {
            currentRevision = revision;
        }
        int currentReplicas = 0;
        for (Map<String, Object> pod : pods.values()) {
            if (currentRevision.equals(ObjectFields.label(pod, REVISION_LABEL))) currentReplicas++;
        }
        Object generation = Json.mapAt(current, "metadata").get("generation");
        if (generation != null) status.put("observedGeneration", generation);
        status.put("replicas", pods.size());
        status.put("readyReplicas", ready);
        status.put("currentReplicas", currentReplicas);
        status.put("updatedReplicas", updated);
        status.put("availableReplicas", ready);
        status.put("currentRevision", currentRevision);
        status.put("updateRevision", revision);
        if (Json.same(changed, current)) return false;
        cluster.put(changed);
        return true;
    }
}
