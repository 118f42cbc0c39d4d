package dev.runbook.testkit.simulation;

import dev.runbook.engine.apply.Json;
import dev.runbook.engine.apply.KubeObject;
import dev.runbook.rules.fact.ObjectRef;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Deployment controller of the simulated cluster, without ReplicaSets: pods named
 * {@code <deployment>-<revision>-<ordinal>} (e.g. {@code web-1-0}; predictable, so a scenario can name
 * them), where the revision counts the template's changes as the {@code deployment.kubernetes.io/revision}
 * annotation does. A new template surges: all the new revision's pods are created at once, and the
 * old ones are deleted when every new one is ready. Status: replicas, updated, ready and available
 * replicas (no minReadySeconds), observedGeneration, and the Available condition (available replicas
 * at least {@code replicas} minus the default maxUnavailable of 25%, rounded down), whose
 * lastTransitionTime is when the last counted pod became ready. Pods of the current revision's names
 * that nobody owns are adopted, as a scenario's state writes them.
 */
final class DeploymentController {
    static final String REVISION = "deployment.kubernetes.io/revision";
    static final String TEMPLATE_HASH = "pod-template-hash";
    static final String COMPONENT = "deployment-controller";

    private final Cluster cluster;

    DeploymentController(Cluster cluster) {
        this.cluster = cluster;
    }

    boolean syncDeployments(Instant now) {
        boolean changed = false;
        for (Map<String, Object> deployment : cluster.list("Deployment")) {
            changed |= sync(deployment, now);
        }
        return changed;
    }

    private boolean sync(Map<String, Object> deployment, Instant now) {
        ObjectRef ref = KubeObject.refOf(deployment);
        Map<String, Object> spec = Json.mapAt(deployment, "spec");
        int replicas = ObjectFields.intAt(spec, "replicas", 1, ref + " spec.replicas");
        Map<String, Object> template = Json.mapAt(spec, "template");
        String hash = Json.hash(template == null ? Map.of() : template);
        Map<String, Object> annotations = Json.mapAt(Json.mapAt(deployment, "metadata"), "annotations");
        int revision = annotations == null || annotations.get(REVISION) == null ? 0
                : Integer.parseInt(String.valueOf(annotations.get(REVISION)));
        if (revision == 0 || !hash.equals(Json.stringAt(annotations, "simulator.runbook.dev/template-hash"))) {
            revision++;
            Map<String, Object> bumped = Json.copyMap(deployment, "deployment");
            Map<String, Object> metadata = Json.child(bumped, "metadata", "metadata");
            Map<String, Object> written = Json.child(metadata, "annotations", "metadata.annotations");
            written.put(REVISION, Integer.toString(revision));
            written.put("simulator.runbook.dev/template-hash", hash);
            cluster.put(bumped);
            return true;
        }
        if (adoptOrphans(deployment, revision, hash)) return true;
        List<Map<String, Object>> current = new ArrayList<>();
        List<Map<String, Object>> old = new ArrayList<>();
        for (Map<String, Object> pod : podsOf(deployment)) {
            (hash.equals(ObjectFields.label(pod, TEMPLATE_HASH)) ? current : old).add(pod);
        }
        boolean changed = false;
        for (int ordinal = 0; ordinal < replicas; ordinal++) {
            String name = ref.getName() + "-" + revision + "-" + ordinal;
            if (current.stream().noneMatch(p -> name.equals(ObjectFields.podName(p)))) {
                createPod(deployment, name, template, hash);
                changed = true;
            }
        }
        for (Map<String, Object> pod : current) {
            if (ordinalOf(pod) >= replicas) {
                cluster.delete(KubeObject.refOf(pod));
                changed = true;
            }
        }
        if (changed) return true;
        if (current.stream().allMatch(ObjectFields::isReady)) {
            for (Map<String, Object> pod : old) {
                cluster.delete(KubeObject.refOf(pod));
                changed = true;
            }
        }
        return changed | writeStatus(ref, replicas, current, old, now);
    }

    /**
     * Adopts the pods named {@code <deployment>-<revision>-<ordinal>} of the current revision in its
     * namespace that no controller owns and that carry the selector's matchLabels: they get the
     * controller owner reference and the current template's hash, so pods written by hand in a
     * scenario's state count as the Deployment's, up to date.
     */
    private boolean adoptOrphans(Map<String, Object> deployment, int revision, String hash) {
        ObjectRef ref = KubeObject.refOf(deployment);
        Map<String, Object> matchLabels = Json.mapAt(Json.mapAt(Json.mapAt(deployment, "spec"), "selector"), "matchLabels");
        String prefix = ref.getName() + "-" + revision + "-";
        boolean changed = false;
        for (Map<String, Object> pod : cluster.list("Pod")) {
            String name = ObjectFields.podName(pod);
            if (!ObjectFields.namespace(pod).equals(ref.getNamespace()) || ObjectFields.controllerUid(pod) != null
                    || !name.startsWith(prefix) || !name.substring(prefix.length()).matches("[0-9]{1,6}")) {
                continue;
            }
            Map<String, Object> labels = Json.mapAt(Json.mapAt(pod, "metadata"), "labels");
            boolean matches = matchLabels == null || matchLabels.entrySet().stream()
                    .allMatch(wanted -> labels != null && Json.same(wanted.getValue(), labels.get(wanted.getKey())));
            if (!matches) continue;
            Map<String, Object> adopted = Json.copyMap(pod, "pod");
            Map<String, Object> metadata = Json.child(adopted, "metadata", "metadata");
            List<Object> owners = new ArrayList<>(ObjectFields.ownerReferences(adopted));
            owners.add(ObjectFields.controllerReference(deployment));
            metadata.put("ownerReferences", owners);
            Json.child(metadata, "labels", "metadata.labels").put(TEMPLATE_HASH, hash);
            cluster.put(adopted);
            changed = true;
        }
        return changed;
    }

    private static int ordinalOf(Map<String, Object> pod) {
        String name = ObjectFields.podName(pod);
        return Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
    }

    private List<Map<String, Object>> podsOf(Map<String, Object> deployment) {
        String uid = ObjectFields.uid(deployment);
        List<Map<String, Object>> pods = new ArrayList<>();
        for (Map<String, Object> pod : cluster.list("Pod")) {
            if (ObjectFields.namespace(pod).equals(ObjectFields.namespace(deployment)) && uid.equals(ObjectFields.controllerUid(pod))) {
                pods.add(pod);
            }
        }
        return pods;
    }

    private void createPod(Map<String, Object> deployment, String name, Map<String, Object> template, String hash) {
        ObjectRef ref = KubeObject.refOf(deployment);
        Map<String, Object> templateMetadata = Json.mapAt(template, "metadata");
        Map<String, Object> labels = new LinkedHashMap<>();
        Map<String, Object> templateLabels = Json.mapAt(templateMetadata, "labels");
        if (templateLabels != null) labels.putAll(templateLabels);
        labels.put(TEMPLATE_HASH, hash);
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", name);
        if (!ref.getNamespace().isEmpty()) metadata.put("namespace", ref.getNamespace());
        metadata.put("labels", labels);
        metadata.put("ownerReferences", new ArrayList<>(List.of(ObjectFields.controllerReference(deployment))));
        Map<String, Object> pod = new LinkedHashMap<>();
        pod.put("apiVersion", "v1");
        pod.put("kind", "Pod");
        pod.put("metadata", metadata);
        Map<String, Object> templateSpec = Json.mapAt(template, "spec");
        pod.put("spec", templateSpec == null ? new LinkedHashMap<>() : templateSpec);
        cluster.put(Json.copyMap(pod, "pod"));
        cluster.recordEvent(ref, "Normal", "SuccessfulCreate", "Created pod: " + name, COMPONENT);
    }

    private boolean writeStatus(ObjectRef ref, int replicas, List<Map<String, Object>> current, List<Map<String, Object>> old,
                                Instant now) {
        Map<String, Object> stored = cluster.get(ref).orElseThrow();
        Map<String, Object> changed = Json.copyMap(stored, "deployment");
        Map<String, Object> status = Json.child(changed, "status", "status");
        int ready = 0;
        Instant lastReady = null;
        List<Map<String, Object>> all = new ArrayList<>(current);
        all.addAll(old);
        for (Map<String, Object> pod : all) {
            if (!ObjectFields.isReady(pod)) continue;
            ready++;
            Instant since = dev.runbook.rules.fact.Values.asInstant(ObjectFields.readyCondition(pod).get("lastTransitionTime"), "lastTransitionTime");
            if (since != null && (lastReady == null || since.isAfter(lastReady))) lastReady = since;
        }
        status.put("observedGeneration", Json.mapAt(stored, "metadata").get("generation"));
        status.put("replicas", all.size());
        status.put("updatedReplicas", current.size());
        status.put("readyReplicas", ready);
        status.put("availableReplicas", ready);
        boolean available = ready >= replicas - replicas / 4;
        List<Object> conditions = ObjectFields.conditions(status, ref);
        Map<String, Object> condition = null;
        for (Object item : conditions) {
            if (item instanceof Map<?, ?> map && "Available".equals(map.get("type"))) {
                @SuppressWarnings("unchecked")
                Map<String, Object> found = (Map<String, Object>) map;
                condition = found;
            }
        }
        if (condition == null) {
            condition = new LinkedHashMap<>();
            condition.put("type", "Available");
            conditions.add(condition);
        }
        String value = available ? "True" : "False";
        if (!value.equals(condition.get("status"))) {
            condition.put("status", value);
            condition.put("reason", available ? "MinimumReplicasAvailable" : "MinimumReplicasUnavailable");
            condition.put("lastTransitionTime", (available && lastReady != null ? lastReady : now).toString());
        }
        if (Json.same(changed, stored)) return false;
        cluster.put(changed);
        return true;
    }
}
