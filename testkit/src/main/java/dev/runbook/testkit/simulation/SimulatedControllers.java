package dev.runbook.testkit.simulation;

import dev.runbook.rules.fact.ObjectRef;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What the controllers and the kubelet of a real cluster would do, done deterministically and only
 * through the {@link Cluster} interface: the {@link StatefulSetController}, the {@link DeploymentController}, a {@link Kubelet} that
 * makes pods Running and Ready, the {@link JobController} up to the point where a test decides a
 * Job's outcome, and the {@link GarbageCollector}. Nothing happens until {@link #settle(Instant)} is
 * called; a settle repeats their steps until the cluster stops changing, so it leaves the cluster at
 * rest.
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

    private final Duration readyAfter;
    private final GarbageCollector garbageCollector;
    private final StatefulSetController statefulSets;
    private final DeploymentController deployments;
    private final Kubelet kubelet;
    private final JobController jobs;

    /** Controllers whose pods become ready {@link #DEFAULT_READY_AFTER} after creation. */
    public SimulatedControllers(Cluster cluster) {
        this(cluster, DEFAULT_READY_AFTER);
    }

    /** @param readyAfter how long after its creationTimestamp a pod becomes Running and Ready; zero or more */
    public SimulatedControllers(Cluster cluster, Duration readyAfter) {
        Objects.requireNonNull(cluster, "cluster");
        if (readyAfter == null || readyAfter.isNegative()) {
            throw new IllegalArgumentException("readyAfter must be zero or more, not " + readyAfter);
        }
        this.readyAfter = readyAfter;
        this.garbageCollector = new GarbageCollector(cluster);
        this.statefulSets = new StatefulSetController(cluster);
        this.deployments = new DeploymentController(cluster);
        this.kubelet = new Kubelet(cluster, readyAfter);
        this.jobs = new JobController(cluster);
    }

    public Duration readyAfter() { return readyAfter; }

    /**
     * Runs garbage collection, the StatefulSet and Deployment controllers, the kubelet and the Job controller, in that
     * order, again and again until a round changes nothing.
     *
     * @param now the time the controllers act at: readiness is measured against it
     * @throws IllegalStateException when the cluster does not come to rest within 1000 rounds
     */
    public synchronized void settle(Instant now) {
        Objects.requireNonNull(now, "now");
        for (int round = 0; round < MAX_ROUNDS; round++) {
            boolean changed = garbageCollector.collectGarbage();
            changed |= statefulSets.syncStatefulSets();
            changed |= deployments.syncDeployments(now);
            changed |= kubelet.syncPods(now);
            changed |= jobs.syncJobs();
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
        kubelet.setReadiness(pod, false, now, "podNotReady");
    }

    /**
     * The pod turns Running with Ready True at {@code now}, written at once, even before its readiness
     * delay; it stays ready until {@link #podNotReady}.
     *
     * @throws IllegalStateException when the pod has finished (phase Succeeded or Failed)
     */
    public synchronized void podReady(ObjectRef pod, Instant now) {
        kubelet.setReadiness(pod, true, now, "podReady");
    }

    /**
     * The Job succeeded at {@code now}: {@code status.succeeded: 1}, a Complete condition and
     * {@code completionTime}. Written at once; nothing when it already succeeded.
     *
     * @throws IllegalStateException when the Job already failed
     */
    public synchronized void jobSucceeds(ObjectRef job, Instant now) {
        jobs.finishJob(job, now, true);
    }

    /**
     * The Job failed at {@code now}: {@code status.failed: 1} and a Failed condition (as in Kubernetes,
     * a failed Job has no {@code completionTime}). Written at once; nothing when it already failed.
     *
     * @throws IllegalStateException when the Job already succeeded
     */
    public synchronized void jobFails(ObjectRef job, Instant now) {
        jobs.finishJob(job, now, false);
    }
}
