package dev.runbook.engine.simulation;

import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Values;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What the controllers and the kubelet of a real cluster would do, done deterministically and only
 * through the {@link Cluster} interface: the StatefulSet controller, a kubelet that makes pods
 * Running and Ready, the Job controller up to the point where a test decides a Job's outcome, and
 * the garbage collector. Nothing happens until {@link #settle(Instant)} is called; a settle repeats
 * its steps until the cluster stops changing, so it leaves the cluster at rest.
 *
 * <p>The controllers keep no state of their own: everything they decide follows from the objects in
 * the cluster and the time they are given, so any number of them could take turns.
 */
public final class SimulatedControllers {

    /** How long a new pod takes to become Running and Ready unless told otherwise. */
    public static final Duration DEFAULT_READY_AFTER = Duration.ofSeconds(10);
    /** The label the StatefulSet controller puts on each pod, holding the pod's name. */
    public static final String POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name";
    /** The label holding the pod's ordinal, as a string. */
    public static final String POD_INDEX_LABEL = "apps.kubernetes.io/pod-index";
    /** The label holding the revision (StatefulSet name and template hash) a pod was built from. */
    public static final String REVISION_LABEL = "controller-revision-hash";
    /** The component named as the source of the controllers' events. */
    public static final String STATEFULSET_CONTROLLER = "statefulset-controller";
    public static final String JOB_CONTROLLER = "job-controller";

    /** A settle that changes the cluster this many times in a row is a loop, not progress. */
    static final int MAX_ROUNDS = 1000;

    private final Cluster cluster;
    private final Duration readyAfter;

    /** Controllers whose pods become ready {@link #DEFAULT_READY_AFTER} after creation. */
    public SimulatedControllers(Cluster cluster) {
        this(cluster, DEFAULT_READY_AFTER);
    }

    /** @param readyAfter how long after its creationTimestamp a pod becomes Running and Ready; zero or more */
    public SimulatedControllers(Cluster cluster, Duration readyAfter) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        if (readyAfter == null || readyAfter.isNegative()) {
            throw new IllegalArgumentException("readyAfter must be zero or more, not " + readyAfter);
        }
        this.readyAfter = readyAfter;
    }

    public Duration readyAfter() { return readyAfter; }

    /**
     * Runs garbage collection, the StatefulSet controller, the kubelet and the Job controller, in that
     * order, again and again until a round changes nothing.
     *
     * @param now the time the controllers act at: readiness is measured against it
     * @throws IllegalStateException when the cluster does not come to rest within 1000 rounds
     */
    public synchronized void settle(Instant now) {
        Objects.requireNonNull(now, "now");
        for (int round = 0; round < MAX_ROUNDS; round++) {
            boolean changed = collectGarbage();
            changed |= syncStatefulSets();
            changed |= syncPods(now);
            changed |= syncJobs();
            if (!changed) return;
        }
        throw new IllegalStateException("the simulated cluster did not come to rest after " + MAX_ROUNDS + " rounds");
    }

    // ---- world changes ------------------------------------------------------------------------

    /**
     * The pod turns Running with Ready False at {@code now}, written at once. The kubelet leaves a
     * Running pod's readiness alone, so it stays not ready until {@link #podReady}.
     *
     * @throws IllegalStateException when the pod has finished (phase Succeeded or Failed)
     */
    public synchronized void podNotReady(ObjectRef pod, Instant now) {
        setReadiness(pod, false, now, "podNotReady");
    }

    /**
     * The pod turns Running with Ready True at {@code now}, written at once, even before its readiness
     * delay; it stays ready until {@link #podNotReady}.
     *
     * @throws IllegalStateException when the pod has finished (phase Succeeded or Failed)
     */
    public synchronized void podReady(ObjectRef pod, Instant now) {
        setReadiness(pod, true, now, "podReady");
    }

    private void setReadiness(ObjectRef ref, boolean ready, Instant now, String what) {
        Objects.requireNonNull(now, "now");
        Map<String, Object> pod = existing(ref, "Pod", what);
        String phase = Json.stringAt(Json.mapAt(pod, "status"), "phase");
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
            throw new IllegalStateException(what + ": " + ref + " has finished (phase " + phase + ")");
        }
        writePodStatus(pod, "Running", ready, now);
    }

    /**
     * The Job succeeded at {@code now}: {@code status.succeeded: 1}, a Complete condition and
     * {@code completionTime}. Written at once; nothing when it already succeeded.
     *
     * @throws IllegalStateException when the Job already failed
     */
    public synchronized void jobSucceeds(ObjectRef job, Instant now) {
        finishJob(job, now, true);
    }

    /**
     * The Job failed at {@code now}: {@code status.failed: 1} and a Failed condition (as in Kubernetes,
     * a failed Job has no {@code completionTime}). Written at once; nothing when it already failed.
     *
     * @throws IllegalStateException when the Job already succeeded
     */
    public synchronized void jobFails(ObjectRef job, Instant now) {
        finishJob(job, now, false);
    }

    private void finishJob(ObjectRef ref, Instant now, boolean succeeded) {
        Objects.requireNonNull(now, "now");
        String what = succeeded ? "jobSucceeds" : "jobFails";
        Map<String, Object> job = existing(ref, "Job", what);
        String outcome = succeeded ? "Complete" : "Failed";
        String finished = finishedAs(job);
        if (outcome.equals(finished)) return;
        if (finished != null) {
            throw new IllegalStateException(what + ": " + ref + " already finished (" + finished + ")");
        }
        Map<String, Object> changed = Json.copyMap(job, "job");
        Map<String, Object> status = Json.child(changed, "status", ref + " status");
        status.remove("active");
        status.putIfAbsent("startTime", creationTime(job, now).toString());
        status.put(succeeded ? "succeeded" : "failed", 1);
        if (succeeded) status.put("completionTime", now.toString());
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("type", outcome);
        condition.put("status", "True");
        if (!succeeded) {
            condition.put("reason", "BackoffLimitExceeded");
            condition.put("message", "Job has reached the specified backoff limit");
        }
        condition.put("lastProbeTime", now.toString());
        condition.put("lastTransitionTime", now.toString());
        conditions(status, ref).add(condition);
        cluster.put(changed);
        if (succeeded) {
            cluster.recordEvent(ref, "Normal", "Completed", "Job completed", JOB_CONTROLLER);
        } else {
            cluster.recordEvent(ref, "Warning", "BackoffLimitExceeded", "Job has reached the specified backoff limit", JOB_CONTROLLER);
        }
    }

    private Map<String, Object> existing(ObjectRef ref, String kind, String what) {
        Objects.requireNonNull(ref, "ref");
        if (!kind.equals(ref.getKind())) {
            throw new IllegalArgumentException(what + " needs a " + kind + ", not " + ref);
        }
        return cluster.get(ref).orElseThrow(() -> new MissingObjectException(what, ref));
    }

    // ---- garbage collector --------------------------------------------------------------------

    /**
     * Deletes every object all of whose owner references name, by uid, owners that no longer exist
     * (an owner in another namespace does not count, as in Kubernetes). An object with an owner
     * reference without a uid is left alone. Dependents of what it deletes go in the next round.
     */
    private boolean collectGarbage() {
        List<Map<String, Object>> all = cluster.list();
        Map<String, String> namespaceByUid = new HashMap<>();
        for (Map<String, Object> object : all) {
            String uid = uid(object);
            if (uid != null) namespaceByUid.put(uid, namespace(object));
        }
        boolean changed = false;
        for (Map<String, Object> object : all) {
            List<Map<String, Object>> owners = ownerReferences(object);
            if (owners.isEmpty()) continue;
            boolean orphan = true;
            for (Map<String, Object> owner : owners) {
                String ownerUid = Json.stringAt(owner, "uid");
                if (ownerUid == null || ownerUid.isBlank()) {
                    orphan = false;
                    break;
                }
                String ownerNamespace = namespaceByUid.get(ownerUid);
                if (ownerNamespace != null && (ownerNamespace.isEmpty() || ownerNamespace.equals(namespace(object)))) {
                    orphan = false;
                    break;
                }
            }
            if (orphan) {
                cluster.delete(InMemoryCluster.refOf(object));
                changed = true;
            }
        }
        return changed;
    }

    // ---- StatefulSet controller ---------------------------------------------------------------

    private boolean syncStatefulSets() {
        boolean changed = false;
        for (Map<String, Object> set : cluster.list("StatefulSet")) {
            changed |= syncStatefulSet(set);
        }
        return changed;
    }

    private boolean syncStatefulSet(Map<String, Object> set) {
        ObjectRef setRef = InMemoryCluster.refOf(set);
        String name = setRef.getName();
        Map<String, Object> spec = Json.mapAt(set, "spec");
        int replicas = intAt(spec, "replicas", 1, setRef + " spec.replicas");
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
                        + "/" + name + " is recreating failed Pod " + podName(entry.getValue()), STATEFULSET_CONTROLLER);
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
            int partition = intAt(Json.mapAt(Json.mapAt(spec, "updateStrategy"), "rollingUpdate"), "partition", 0,
                    setRef + " spec.updateStrategy.rollingUpdate.partition");
            for (int ordinal = replicas - 1; ordinal >= Math.max(partition, 0); ordinal--) {
                Map<String, Object> pod = kept.get(ordinal);
                if (pod == null || revision.equals(label(pod, REVISION_LABEL))) continue;
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
        ObjectRef setRef = InMemoryCluster.refOf(set);
        Map<String, Object> matchLabels = Json.mapAt(Json.mapAt(Json.mapAt(set, "spec"), "selector"), "matchLabels");
        boolean changed = false;
        for (Map<String, Object> pod : cluster.list("Pod")) {
            if (!namespace(pod).equals(setRef.getNamespace()) || controllerUid(pod) != null
                    || ordinalOf(podName(pod), setRef.getName()) == null) {
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
        ObjectRef setRef = InMemoryCluster.refOf(set);
        Map<String, Object> owner = new LinkedHashMap<>();
        owner.put("apiVersion", setRef.getApiVersion());
        owner.put("kind", "StatefulSet");
        owner.put("name", setRef.getName());
        owner.put("uid", uid(set));
        owner.put("controller", true);
        owner.put("blockOwnerDeletion", true);
        return owner;
    }

    private static boolean othersReady(Map<Integer, Map<String, Object>> pods, int except, int replicas) {
        for (int ordinal = 0; ordinal < replicas; ordinal++) {
            if (ordinal == except) continue;
            Map<String, Object> pod = pods.get(ordinal);
            if (pod == null || !isReady(pod)) return false;
        }
        return true;
    }

    /** The pods the StatefulSet controls, by ordinal; a pod whose name has no ordinal counts as MAX_VALUE. */
    private TreeMap<Integer, Map<String, Object>> podsOf(Map<String, Object> set) {
        String uid = uid(set);
        String setName = InMemoryCluster.refOf(set).getName();
        TreeMap<Integer, Map<String, Object>> pods = new TreeMap<>();
        int unnumbered = Integer.MAX_VALUE;
        for (Map<String, Object> pod : cluster.list("Pod")) {
            if (!namespace(pod).equals(namespace(set)) || !uid.equals(controllerUid(pod))) continue;
            Integer ordinal = ordinalOf(podName(pod), setName);
            pods.put(ordinal == null ? unnumbered-- : ordinal, pod);
        }
        return pods;
    }

    private boolean createPod(Map<String, Object> set, int ordinal, Map<String, Object> template, String revision) {
        ObjectRef setRef = InMemoryCluster.refOf(set);
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
        cluster.delete(InMemoryCluster.refOf(pod));
        cluster.recordEvent(setRef, "Normal", "SuccessfulDelete",
                "delete Pod " + podName(pod) + " in StatefulSet " + setRef.getName() + " successful", STATEFULSET_CONTROLLER);
    }

    private boolean writeStatefulSetStatus(Map<String, Object> set, int replicas, String revision,
                                           TreeMap<Integer, Map<String, Object>> pods) {
        Map<String, Object> current = cluster.get(InMemoryCluster.refOf(set)).orElse(set);
        Map<String, Object> changed = Json.copyMap(current, "statefulset");
        Map<String, Object> status = Json.child(changed, "status", "status");
        int ready = 0;
        int updated = 0;
        for (Map<String, Object> pod : pods.values()) {
            if (isReady(pod)) ready++;
            if (revision.equals(label(pod, REVISION_LABEL))) updated++;
        }
        String currentRevision = Json.stringAt(status, "currentRevision");
        if (currentRevision == null || (updated == replicas && ready == replicas && pods.size() == replicas)) {
            currentRevision = revision;
        }
        int currentReplicas = 0;
        for (Map<String, Object> pod : pods.values()) {
            if (currentRevision.equals(label(pod, REVISION_LABEL))) currentReplicas++;
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

    // ---- kubelet ------------------------------------------------------------------------------

    private boolean syncPods(Instant now) {
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
     * with a Ready condition) is left as it is: its readiness changes only by {@link #podReady} and
     * {@link #podNotReady}.
     */
    private boolean syncPod(Map<String, Object> pod, Instant now) {
        Map<String, Object> status = Json.mapAt(pod, "status");
        String phase = Json.stringAt(status, "phase");
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
            return writePodStatus(pod, phase, false, now);
        }
        boolean starting = "Pending".equals(phase) || (phase == null && readyCondition(pod) == null);
        if (!starting) {
            return false;
        }
        Instant created = creationTime(pod, now);
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
        ObjectRef ref = InMemoryCluster.refOf(pod);
        Map<String, Object> changed = Json.copyMap(pod, "pod");
        Map<String, Object> status = Json.child(changed, "status", ref + " status");
        status.put("phase", phase);
        List<Object> conditions = conditions(status, ref);
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

    @SuppressWarnings("unchecked")
    private static Map<String, Object> readyCondition(Map<String, Object> pod) {
        Map<String, Object> status = Json.mapAt(pod, "status");
        if (status != null && status.get("conditions") instanceof List<?> list) {
            for (Object item : list) {
                if (item instanceof Map<?, ?> c && "Ready".equals(c.get("type"))) return (Map<String, Object>) c;
            }
        }
        return null;
    }

    // ---- Job controller -----------------------------------------------------------------------

    /** A Job that has not finished is active: {@code status.active: 1} and {@code startTime} = creation. */
    private boolean syncJobs() {
        boolean changed = false;
        for (Map<String, Object> job : cluster.list("Job")) {
            if (finishedAs(job) != null) continue;
            Map<String, Object> updated = Json.copyMap(job, "job");
            Map<String, Object> status = Json.child(updated, "status", InMemoryCluster.refOf(job) + " status");
            status.put("active", 1);
            status.putIfAbsent("startTime", creationTime(job, Instant.EPOCH).toString());
            if (!Json.same(updated, job)) {
                cluster.put(updated);
                changed = true;
            }
        }
        return changed;
    }

    /** "Complete" or "Failed" when the Job has that condition True, else null. */
    private static String finishedAs(Map<String, Object> job) {
        Object conditions = Json.mapAt(job, "status") == null ? null : Json.mapAt(job, "status").get("conditions");
        if (conditions instanceof List<?> list) {
            for (Object item : list) {
                if (item instanceof Map<?, ?> c && "True".equals(c.get("status"))
                        && ("Complete".equals(c.get("type")) || "Failed".equals(c.get("type")))) {
                    return (String) c.get("type");
                }
            }
        }
        return null;
    }

    // ---- reading objects ----------------------------------------------------------------------

    static boolean isReady(Map<String, Object> pod) {
        Map<String, Object> metadata = Json.mapAt(pod, "metadata");
        if (metadata != null && metadata.get("deletionTimestamp") != null) return false;
        Map<String, Object> condition = readyCondition(pod);
        return condition != null && "True".equals(condition.get("status"));
    }

    @SuppressWarnings("unchecked")
    private static List<Object> conditions(Map<String, Object> status, ObjectRef ref) {
        Object value = status.get("conditions");
        if (value == null) {
            List<Object> created = new ArrayList<>();
            status.put("conditions", created);
            return created;
        }
        if (!(value instanceof List<?>)) {
            throw new IllegalStateException(ref + ": status.conditions is a " + value.getClass().getSimpleName() + ", not a list");
        }
        return (List<Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> ownerReferences(Map<String, Object> object) {
        Object value = Json.mapAt(object, "metadata") == null ? null : Json.mapAt(object, "metadata").get("ownerReferences");
        List<Map<String, Object>> owners = new ArrayList<>();
        if (value instanceof List<?> list) {
            for (Object item : list) {
                if (item instanceof Map<?, ?> map) owners.add((Map<String, Object>) map);
            }
        }
        return owners;
    }

    private static String controllerUid(Map<String, Object> object) {
        for (Map<String, Object> owner : ownerReferences(object)) {
            if (Boolean.TRUE.equals(owner.get("controller"))) return Json.stringAt(owner, "uid");
        }
        return null;
    }

    private static String uid(Map<String, Object> object) {
        return Json.stringAt(Json.mapAt(object, "metadata"), "uid");
    }

    private static String namespace(Map<String, Object> object) {
        String namespace = Json.stringAt(Json.mapAt(object, "metadata"), "namespace");
        return namespace == null ? "" : namespace;
    }

    private static String podName(Map<String, Object> pod) {
        return Json.stringAt(Json.mapAt(pod, "metadata"), "name");
    }

    private static String label(Map<String, Object> object, String key) {
        return Json.stringAt(Json.mapAt(Json.mapAt(object, "metadata"), "labels"), key);
    }

    private static Instant creationTime(Map<String, Object> object, Instant fallback) {
        Object value = Json.mapAt(object, "metadata") == null ? null : Json.mapAt(object, "metadata").get("creationTimestamp");
        return value == null ? fallback : Values.asInstant(value, "metadata.creationTimestamp");
    }

    private static int intAt(Map<String, Object> map, String key, int defaultValue, String field) {
        Object value = map == null ? null : map.get(key);
        if (value == null) return defaultValue;
        long number = Values.asLong(value, field);
        if (number < 0 || number > Integer.MAX_VALUE) {
            throw new IllegalStateException(field + ": " + number + " is not a count");
        }
        return (int) number;
    }
}
