package dev.runbook.engine.simulation;

import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Values;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the controllers and the kubelet of a real cluster would do, done deterministically and only
 * through the {@link Cluster} interface: the StatefulSet controller, a kubelet that makes pods
 * Running and Ready, the Job controller up to the point where a test decides a Job's outcome, and
 * the garbage collector. Nothing happens until {@link #settle(Instant)} is called; a settle repeats
 * its steps until the cluster stops changing, so it leaves the cluster at rest.
 *
 * <p>The only state kept outside the cluster is the readiness a test forced on a pod with
 * {@link #podReady} or {@link #podNotReady}, held by the pod's uid: a pod deleted and created again is
 * a new pod, and its readiness is natural again.
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

    private record ForcedReadiness(boolean ready, Instant since) {}

    private final Cluster cluster;
    private final Duration readyAfter;
    private final Map<String, ForcedReadiness> forced = new HashMap<>();

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
            if (!changed) {
                forgetDeletedPods();
                return;
            }
        }
        throw new IllegalStateException("the simulated cluster did not come to rest after " + MAX_ROUNDS + " rounds");
    }

    // ---- world changes ------------------------------------------------------------------------

    /** From {@code now} the pod is Running and Ready False, until {@link #podReady}. Written at once. */
    public synchronized void podNotReady(ObjectRef pod, Instant now) {
        force(pod, new ForcedReadiness(false, now), "podNotReady");
    }

    /** From {@code now} the pod is Running and Ready True, whatever its age, until {@link #podNotReady}. */
    public synchronized void podReady(ObjectRef pod, Instant now) {
        force(pod, new ForcedReadiness(true, now), "podReady");
    }

    private void force(ObjectRef ref, ForcedReadiness readiness, String what) {
        Objects.requireNonNull(readiness.since(), "now");
        Map<String, Object> pod = existing(ref, "Pod", what);
        forced.put(uid(pod), readiness);
        syncPod(pod, readiness.since());
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
        boolean changed = false;

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
        String prefix = InMemoryCluster.refOf(set).getName() + "-";
        TreeMap<Integer, Map<String, Object>> pods = new TreeMap<>();
        int unnumbered = Integer.MAX_VALUE;
        for (Map<String, Object> pod : cluster.list("Pod")) {
            if (!namespace(pod).equals(namespace(set)) || !uid.equals(controllerUid(pod))) continue;
            String name = podName(pod);
            Integer ordinal = null;
            if (name.startsWith(prefix)) {
                try {
                    ordinal = Integer.parseInt(name.substring(prefix.length()));
                } catch (NumberFormatException e) {
                    ordinal = null;
                }
            }
            pods.put(ordinal == null || ordinal < 0 ? unnumbered-- : ordinal, pod);
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
        Map<String, Object> owner = new LinkedHashMap<>();
        owner.put("apiVersion", setRef.getApiVersion());
        owner.put("kind", "StatefulSet");
        owner.put("name", setRef.getName());
        owner.put("uid", uid(set));
        owner.put("controller", true);
        owner.put("blockOwnerDeletion", true);
        metadata.put("ownerReferences", new ArrayList<>(List.of(owner)));
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
     * Writes the pod's {@code status.phase} and Ready condition: Pending and not ready until
     * {@code readyAfter} past its creation, then Running and Ready, unless a test forced its readiness.
     * A pod in a terminal phase (Succeeded, Failed) keeps it and is not ready.
     */
    private boolean syncPod(Map<String, Object> pod, Instant now) {
        Map<String, Object> existingStatus = Json.mapAt(pod, "status");
        String phase = Json.stringAt(existingStatus, "phase");
        Instant created = creationTime(pod, now);
        Instant readyAt = created.plus(readyAfter);
        boolean naturallyReady = !now.isBefore(readyAt);
        ForcedReadiness force = forced.get(uid(pod));

        boolean ready;
        String desiredPhase;
        Instant since;
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
            ready = false;
            desiredPhase = phase;
            since = now;
        } else if (force != null) {
            ready = force.ready();
            desiredPhase = ready || naturallyReady || "Running".equals(phase) ? "Running" : "Pending";
            since = force.since();
        } else {
            ready = naturallyReady;
            desiredPhase = ready ? "Running" : "Pending";
            since = ready ? readyAt : created;
        }

        Map<String, Object> changed = Json.copyMap(pod, "pod");
        Map<String, Object> status = Json.child(changed, "status", InMemoryCluster.refOf(pod) + " status");
        status.put("phase", desiredPhase);
        List<Object> conditions = conditions(status, InMemoryCluster.refOf(pod));
        Map<String, Object> condition = null;
        for (Object item : conditions) {
            if (item instanceof Map<?, ?> map && "Ready".equals(map.get("type"))) {
                @SuppressWarnings("unchecked")
                Map<String, Object> found = (Map<String, Object>) map;
                condition = found;
            }
        }
        String readyStatus = ready ? "True" : "False";
        if (condition == null) {
            condition = new LinkedHashMap<>();
            condition.put("type", "Ready");
            conditions.add(condition);
        }
        if (!readyStatus.equals(condition.get("status"))) {
            condition.put("status", readyStatus);
            condition.put("lastTransitionTime", since.toString());
        }
        if (Json.same(changed, pod)) return false;
        cluster.put(changed);
        return true;
    }

    private void forgetDeletedPods() {
        if (forced.isEmpty()) return;
        Set<String> live = new HashSet<>();
        for (Map<String, Object> pod : cluster.list("Pod")) live.add(uid(pod));
        forced.keySet().retainAll(live);
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
        Map<String, Object> status = Json.mapAt(pod, "status");
        if (status != null && status.get("conditions") instanceof List<?> list) {
            for (Object item : list) {
                if (item instanceof Map<?, ?> c && "Ready".equals(c.get("type"))) return "True".equals(c.get("status"));
            }
        }
        return false;
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
