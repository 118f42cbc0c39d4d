package dev.runbook.testkit.simulation;

import dev.runbook.engine.apply.Json;
import dev.runbook.engine.apply.KubeObject;
import dev.runbook.engine.apply.MissingObjectException;
import dev.runbook.engine.apply.Outcome;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.fact.ObjectPath;
import dev.runbook.rules.fact.ObjectRef;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A simulated cluster for scenario tests: an {@link InMemoryCluster}, the {@link SimulatedControllers}
 * acting on it and an {@link ActionApplier} applying plans to it, with the world changes a scenario
 * step can make.
 *
 * <p>Time moves only through {@link #advance}, which then settles the controllers. Plans and world
 * changes take effect in the cluster at once; the controllers react to them at the next
 * {@link #advance} or {@link #settle}, as real controllers react to a change shortly after it.
 */
public final class Simulator {

    private static final Set<String> UNWRITABLE = Set.of("apiVersion", "kind", "metadata.name", "metadata.namespace",
            "metadata.uid", "metadata.resourceVersion", "metadata.generation", "metadata.creationTimestamp");

    private final InMemoryCluster cluster;
    private final SimulatedControllers controllers;
    private final ActionApplier applier;

    /** An empty cluster at {@code start} whose pods become ready 10 seconds after creation. */
    public Simulator(Instant start) {
        this(start, SimulatedControllers.DEFAULT_READY_AFTER);
    }

    /** An empty cluster at {@code start} whose pods become ready {@code readyAfter} after creation. */
    public Simulator(Instant start, Duration readyAfter) {
        this(new InMemoryCluster(start), readyAfter);
    }

    /** A simulator over an existing in-memory cluster (which may already hold objects). */
    public Simulator(InMemoryCluster cluster, Duration readyAfter) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.controllers = new SimulatedControllers(cluster, readyAfter);
        this.applier = new ActionApplier(cluster);
    }

    /**
     * A reference by kind, namespace and name, with the apiVersion of well-known kinds (v1 for Pod,
     * apps/v1 for StatefulSet, batch/v1 for Job, ...) and empty for others. The apiVersion is not part
     * of an object's identity in the cluster, so any reference with the right kind, namespace and name
     * finds it.
     */
    public static ObjectRef ref(String kind, String namespace, String name) {
        String apiVersion = switch (kind) {
            case "Pod", "Service", "ConfigMap", "Secret", "PersistentVolumeClaim", "ServiceAccount", "Namespace",
                 "Endpoints", "Event" -> "v1";
            case "StatefulSet", "Deployment", "ReplicaSet", "DaemonSet" -> "apps/v1";
            case "Job", "CronJob" -> "batch/v1";
            case "PodDisruptionBudget" -> "policy/v1";
            default -> "";
        };
        return ObjectRef.of(apiVersion, kind, namespace, name);
    }

    public Cluster cluster() { return cluster; }
    public SimulatedControllers controllers() { return controllers; }
    public ActionApplier applier() { return applier; }

    public Instant now() { return cluster.now(); }

    /**
     * Moves time forward by {@code duration} and settles the controllers at the new time.
     *
     * @throws IllegalArgumentException for a negative duration
     */
    public void advance(Duration duration) {
        if (duration == null || duration.isNegative()) {
            throw new IllegalArgumentException("advance needs a duration of zero or more, not " + duration);
        }
        cluster.setNow(cluster.now().plus(duration));
        settle();
    }

    /** Lets the controllers react to everything so far, without time passing. */
    public void settle() {
        controllers.settle(cluster.now());
    }

    /** Applies one action at the current time; see {@link ActionApplier#apply}. */
    public Outcome apply(Action action) {
        return applier.apply(action);
    }

    /** Applies a plan's actions in order, one outcome each; see {@link ActionApplier#applyAll}. */
    public List<Outcome> applyPlan(List<? extends Action> plan) {
        return applier.applyAll(plan);
    }

    /** A copy of the object, or empty. */
    public Optional<Map<String, Object>> get(ObjectRef ref) {
        return cluster.get(ref);
    }

    /** Every event recorded so far, oldest first. */
    public List<Map<String, Object>> events() {
        return cluster.events();
    }

    // ---- world changes: each takes effect at once and throws MissingObjectException for a missing object

    /** The pod turns Running and Ready False now, and stays not ready until {@link #podReady}. */
    public void podNotReady(ObjectRef pod) {
        controllers.podNotReady(pod, now());
    }

    /** The pod turns Running and Ready True now, even before its readiness delay, until {@link #podNotReady}. */
    public void podReady(ObjectRef pod) {
        controllers.podReady(pod, now());
    }

    /**
     * The pod is deleted (at once: there is no graceful termination). A StatefulSet creates it again
     * at the next settle, as a new pod whose readiness delay starts again.
     */
    public void deletePod(ObjectRef pod) {
        if (!"Pod".equals(pod.getKind())) throw new IllegalArgumentException("deletePod needs a Pod, not " + pod);
        delete(pod);
    }

    /** The Job succeeds now. */
    public void jobSucceeds(ObjectRef job) {
        controllers.jobSucceeds(job, now());
    }

    /** The Job fails now. */
    public void jobFails(ObjectRef job) {
        controllers.jobFails(job, now());
    }

    /** Sets the annotation, or removes it when {@code value} is null. */
    public void annotate(ObjectRef ref, String key, String value) {
        setField(ref, List.of("metadata", "annotations", key), value, "annotate");
    }

    /** Sets the label, or removes it when {@code value} is null. */
    public void label(ObjectRef ref, String key, String value) {
        setField(ref, List.of("metadata", "labels", key), value, "label");
    }

    /**
     * Sets the field at a dotted path from the object's root ({@code spec.image}, {@code status.phase},
     * {@code spec.containers[0].image}), creating maps on the way; a null value removes the field.
     * The identity (apiVersion, kind, metadata.name, metadata.namespace) and the fields the cluster
     * owns (uid, resourceVersion, generation, creationTimestamp) cannot be set.
     */
    public void setField(ObjectRef ref, String path, Object value) {
        List<String> steps = ObjectPath.steps(path);
        String joined = String.join(".", steps);
        if (UNWRITABLE.contains(joined)) {
            throw new IllegalArgumentException("setField cannot set " + joined + " of " + ref
                    + ": the identity and the fields the cluster owns are not writable");
        }
        setField(ref, steps, value, "setField " + joined);
    }

    private void setField(ObjectRef ref, List<String> steps, Object value, String what) {
        Objects.requireNonNull(ref, "ref");
        Map<String, Object> existing = cluster.get(ref).orElseThrow(() -> new MissingObjectException(what, ref));
        Map<String, Object> changed = Json.copyMap(existing, "object");
        Json.write(changed, steps, Json.copy(value, what), what + " on " + ref);
        Map<String, Object> metadata = Json.mapAt(changed, "metadata");
        for (String group : List.of("labels", "annotations")) {
            if (metadata != null && metadata.get(group) instanceof Map<?, ?> entries && entries.isEmpty()) {
                metadata.remove(group); // as Kubernetes stores them: no empty label or annotation map
            }
        }
        if (!Json.same(changed, existing)) cluster.put(changed);
    }

    /**
     * Creates the object as given (uid, creationTimestamp and generation are filled when missing).
     *
     * @throws IllegalStateException when an object of that kind, namespace and name exists
     */
    public void create(Map<String, Object> object) {
        ObjectRef ref = KubeObject.refOf(Json.copyMap(object, "object"));
        if (cluster.get(ref).isPresent()) {
            throw new IllegalStateException("create: " + ref + " already exists");
        }
        cluster.put(object);
    }

    /** Deletes the object at once; its dependents go at the next settle (garbage collection). */
    public void delete(ObjectRef ref) {
        if (!cluster.delete(ref)) throw new MissingObjectException("delete", ref);
    }
}
