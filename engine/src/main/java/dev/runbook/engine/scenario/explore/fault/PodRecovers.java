package dev.runbook.engine.scenario.explore.fault;

import dev.runbook.engine.scenario.explore.Drawn;
import dev.runbook.engine.scenario.explore.Fault;
import dev.runbook.engine.scenario.explore.Pick;
import dev.runbook.engine.scenario.explore.World;

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
