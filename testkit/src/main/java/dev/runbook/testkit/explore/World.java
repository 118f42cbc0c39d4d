package dev.runbook.testkit.explore;

import dev.runbook.rules.fact.Primary;
import dev.runbook.rules.fact.Resource;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The simulated cluster as a fault sees it when it is drawn: the primary, the pods and Jobs in its
 * namespace, the Nodes of the cluster (those the start state holds), the time, the step number and how long the bundle waits before it fails over. Faults
 * read it to choose what to break; they change the world only through the world changes they return.
 *
 * @param failoverDelay the primary's {@code spec.failoverDelay}, else the bundle's {@code failoverDelay}
 *                      parameter, else zero: a clock jump goes past it
 */
public record World(Primary primary, List<Resource> pods, List<Resource> jobs, List<Resource> nodes, Instant now, int step,
                    Duration failoverDelay) {
    public World {
        pods = List.copyOf(pods);
        jobs = List.copyOf(jobs);
        nodes = List.copyOf(nodes);
    }

    /** Pods not being deleted. */
    public List<Resource> livePods() { return pods.stream().filter(p -> !p.isDeleting()).toList(); }

    /** Jobs that have neither completed nor failed. */
    public List<Resource> runningJobs() { return jobs.stream().filter(j -> !j.isComplete() && !j.isFailed()).toList(); }

    /** Whether the kubelet left this pod alone: Running (or without a phase), so readiness changes only by a world change. */
    public static boolean isSettled(Resource pod) {
        String phase = pod.str("status.phase", "");
        return phase.equals("Running") || (phase.isEmpty() && pod.condition("Ready") != null);
    }
}
