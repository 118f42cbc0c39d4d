package dev.runbook.testkit.explore.fault;

import dev.runbook.testkit.explore.Drawn;
import dev.runbook.testkit.explore.Fault;
import dev.runbook.testkit.explore.Pick;
import dev.runbook.testkit.explore.World;

import java.util.Optional;
import java.util.random.RandomGenerator;

/** A ready pod stops being ready (its container crashes, its probe fails). */
public final class PodNotReady implements Fault {
    @Override public String name() { return "pod not ready"; }

    @Override
    public Optional<Drawn> draw(World world, RandomGenerator random) {
        return Pick.one(world.livePods().stream().filter(p -> p.isReady()).toList(), random)
                .map(pod -> Drawn.of(pod.getName() + " stops being ready", Drawn.shortForm("podNotReady", "Pod", pod.getName())));
    }
}
