package dev.runbook.testkit.explore.fault;

import dev.runbook.testkit.scenario.WorldChange;
import dev.runbook.testkit.explore.Drawn;
import dev.runbook.testkit.explore.Fault;
import dev.runbook.testkit.explore.Pick;
import dev.runbook.testkit.explore.World;
import dev.runbook.rules.fact.Resource;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * A Node stops reporting: the node controller turns its Ready condition Unknown, while the pods on it
 * keep their last status (Ready). The condition's lastTransitionTime is the time it was written, which
 * a rule may count from: now, earlier (the node was lost while nobody looked: an operator down, a long
 * backlog, up to twice the failover delay before now), or later (a clock ahead of the operator's, which a
 * rule must not trust). Drawn among the Nodes the start state holds that are Ready.
 */
public final class NodeDown implements Fault {
    @Override public String name() { return "node stops reporting"; }

    @Override
    public Optional<Drawn> draw(World world, RandomGenerator random) {
        List<Resource> ready = world.nodes().stream().filter(n -> n.isConditionTrue("Ready")).toList();
        return Pick.one(ready, random).map(node -> {
            int when = random.nextInt(3);
            long span = Math.max(2, world.failoverDelay().getSeconds() * 2);
            Instant since = when == 0 ? world.now() : when == 1 ? world.now().minusSeconds(1 + random.nextLong(span))
                    : world.now().plus(Duration.ofMinutes(5));
            String said = when == 0 ? "now" : when == 1 ? "since " + since + ", before anyone looked" : "at " + since + ", a time in the future";
            Map<String, Object> fields = new java.util.LinkedHashMap<>();
            fields.put("namespace", "");
            fields.put("path", "status.conditions");
            fields.put("value", List.of(Map.of("type", "Ready", "status", "Unknown", "reason", "NodeStatusUnknown",
                    "message", "Kubelet stopped posting node status.", "lastTransitionTime", since.toString())));
            return Drawn.of("the node " + node.getName() + " stops reporting (Ready Unknown " + said + ")",
                    new WorldChange("set", "Node", node.getName(), fields, 0));
        });
    }
}
