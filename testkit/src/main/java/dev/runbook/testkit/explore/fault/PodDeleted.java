package dev.runbook.testkit.explore.fault;

import dev.runbook.testkit.explore.Drawn;
import dev.runbook.testkit.explore.Fault;
import dev.runbook.testkit.explore.Pick;
import dev.runbook.testkit.explore.World;

import java.util.Optional;
import java.util.random.RandomGenerator;

/** A pod is deleted (evicted, or by hand); its StatefulSet makes it again. */
public final class PodDeleted implements Fault {
    @Override public String name() { return "pod deleted"; }

    @Override
    public Optional<Drawn> draw(World world, RandomGenerator random) {
        return Pick.one(world.pods(), random)
                .map(pod -> Drawn.of(pod.getName() + " is deleted", Drawn.shortForm("deletePod", "Pod", pod.getName())));
    }
}
