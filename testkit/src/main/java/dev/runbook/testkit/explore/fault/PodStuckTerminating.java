package dev.runbook.testkit.explore.fault;

import dev.runbook.testkit.explore.Drawn;
import dev.runbook.testkit.explore.Fault;
import dev.runbook.testkit.explore.Pick;
import dev.runbook.testkit.explore.World;

import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * A pod is being deleted and stays so: it has a deletionTimestamp, and a finalizer or an unreachable
 * kubelet keeps it. Rules see it as {@code deleting}; its StatefulSet does not replace it.
 */
public final class PodStuckTerminating implements Fault {
    @Override public String name() { return "pod stuck terminating"; }

    @Override
    public Optional<Drawn> draw(World world, RandomGenerator random) {
        return Pick.one(world.livePods(), random).map(pod -> Drawn.of(pod.getName() + " is stuck terminating",
                Drawn.set("Pod", pod.getName(), "metadata.deletionTimestamp", world.now().toString())));
    }
}
