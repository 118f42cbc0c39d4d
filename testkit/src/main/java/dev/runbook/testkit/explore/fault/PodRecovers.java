package dev.runbook.testkit.explore.fault;

import dev.runbook.testkit.explore.Drawn;
import dev.runbook.testkit.explore.Fault;
import dev.runbook.testkit.explore.Pick;
import dev.runbook.testkit.explore.World;

import java.util.Optional;
import java.util.random.RandomGenerator;

/** A pod that is not ready, and that the kubelet has left alone, turns ready again. */
public final class PodRecovers implements Fault {
    @Override public String name() { return "pod recovers"; }

    @Override
    public Optional<Drawn> draw(World world, RandomGenerator random) {
        return Pick.one(world.livePods().stream().filter(p -> !p.isReady() && World.isSettled(p)).toList(), random)
                .map(pod -> Drawn.of(pod.getName() + " is ready again", Drawn.shortForm("podReady", "Pod", pod.getName())));
    }
}
