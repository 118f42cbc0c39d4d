package dev.runbook.testkit.explore.fault;

import dev.runbook.testkit.explore.Drawn;
import dev.runbook.testkit.explore.Fault;
import dev.runbook.testkit.explore.Pick;
import dev.runbook.testkit.explore.World;

import java.util.Optional;
import java.util.random.RandomGenerator;

/** A Node that stopped reporting is back: its Ready condition turns True. */
public final class NodeBack implements Fault {
    @Override public String name() { return "node back"; }

    @Override
    public Optional<Drawn> draw(World world, RandomGenerator random) {
        return Pick.one(world.nodes().stream().filter(n -> !n.isConditionTrue("Ready")).toList(), random)
                .map(node -> Drawn.of("the node " + node.getName() + " is back", Drawn.shortForm("nodeReady", "Node", node.getName())));
    }
}
