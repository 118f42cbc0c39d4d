package dev.runbook.testkit.simulation;

import dev.runbook.rules.fact.ObjectRef;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Kubernetes API as the simulator sees it: a store of objects, each a Kubernetes object as nested
 * maps (apiVersion, kind, metadata, spec, status, ...), plus the events recorded about them. The
 * {@link ActionApplier} and the {@link SimulatedControllers} reach the cluster only through this
 * interface, so the same code runs against {@link InMemoryCluster} and against a real API server.
 *
 * <p>An object is identified by kind, namespace (empty for cluster-scoped objects) and name; the
 * apiVersion of an {@link ObjectRef} is not part of the identity. Every object returned is a deep,
 * modifiable copy: changing it changes nothing in the cluster until it is {@link #put}.
 */
public interface Cluster {

    /** The cluster's current time: creation timestamps and event times are taken from it. */
    Instant now();

    /** The object named by {@code ref}, or empty when there is none. */
    Optional<Map<String, Object>> get(ObjectRef ref);

    /** Every object, ordered by kind, then namespace, then name. Events are not included. */
    List<Map<String, Object>> list();

    /** Every object of this kind, ordered by namespace, then name. */
    List<Map<String, Object>> list(String kind);

    /**
     * Creates the object, or replaces the stored one of the same kind, namespace and name.
     *
     * <p>The cluster owns {@code metadata.uid}, {@code metadata.resourceVersion},
     * {@code metadata.creationTimestamp} and {@code metadata.generation}. On create it fills uid,
     * creationTimestamp and generation (1) when missing and keeps them when given; on replace it keeps
     * the stored uid and creationTimestamp and adds 1 to the generation when the desired state changed
     * (any top-level field other than apiVersion, kind, metadata and status). The resourceVersion is
     * assigned on every change; a put that changes nothing keeps it.
     *
     * @throws IllegalArgumentException when apiVersion, kind or metadata.name is missing, when a value
     *                                  is not JSON-like, or when a replace gives another uid
     */
    void put(Map<String, Object> object);

    /**
     * Deletes the object; true when there was one. One with finalizers only gets a deletionTimestamp and
     * stays until its last finalizer is removed. Dependents are left to the garbage collector.
     */
    boolean delete(ObjectRef ref);

    /** Every event recorded, oldest first, each an {@code Event} object as nested maps. */
    List<Map<String, Object>> events();

    /**
     * Records an event about {@code involved}, whether or not that object exists.
     *
     * @param type      {@code Normal} or {@code Warning}
     * @param component who reports it, e.g. {@code statefulset-controller}
     */
    void recordEvent(ObjectRef involved, String type, String reason, String message, String component);
}
