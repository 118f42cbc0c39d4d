package dev.runbook.testkit.explore.fault;

import dev.runbook.testkit.explore.Drawn;
import dev.runbook.testkit.explore.Fault;
import dev.runbook.testkit.explore.Pick;
import dev.runbook.testkit.explore.World;

import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * The node of a pod is lost. The simulated cluster has no nodes, so this is what a lost node does to
 * the one instance it runs (instances are spread one per node): the pod turns not ready at once, and
 * is marked for deletion that never completes, since no kubelet is left to confirm it.
 */
public final class NodeLost implements Fault {
    @Override public String name() { return "node lost"; }

    @Override
    public Optional<Drawn> draw(World world, RandomGenerator random) {
        return Pick.one(world.livePods(), random).map(pod -> Drawn.of("the node of " + pod.getName() + " is lost",
                Drawn.shortForm("podNotReady", "Pod", pod.getName()),
                Drawn.set("Pod", pod.getName(), "metadata.deletionTimestamp", world.now().toString())));
    }
}
