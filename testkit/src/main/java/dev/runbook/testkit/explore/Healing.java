package dev.runbook.testkit.explore;

import dev.runbook.testkit.scenario.WorldChange;
import dev.runbook.rules.fact.Resource;

import java.util.ArrayList;
import java.util.List;

/**
 * What the world does once faults stop, as the engine knows it: a pod stuck terminating is finally
 * gone (its StatefulSet makes it again), a running pod that is not ready turns ready, a Node that is not
 * Ready is back, and a running
 * Job completes (simulated Jobs never end by themselves). A bundle
 * adds its own healing in {@code explore.yaml} (converge.heal).
 */
final class Healing {
    private Healing() {}

    static List<WorldChange> of(World world) {
        List<WorldChange> changes = new ArrayList<>();
        for (Resource pod : world.pods()) {
            if (pod.isDeleting()) {
                changes.add(Drawn.shortForm("deletePod", "Pod", pod.getName()));
            } else if (!pod.isReady() && World.isSettled(pod)) {
                changes.add(Drawn.shortForm("podReady", "Pod", pod.getName()));
            }
        }
        for (Resource node : world.nodes()) {
            if (!node.isConditionTrue("Ready")) changes.add(Drawn.shortForm("nodeReady", "Node", node.getName()));
        }
        for (Resource job : world.runningJobs()) {
            changes.add(Drawn.shortForm("jobSucceeds", "Job", job.getName()));
        }
        return changes;
    }
}
