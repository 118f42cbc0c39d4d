package dev.runbook.testkit.explore;

import dev.runbook.testkit.scenario.WorldChange;
import dev.runbook.rules.fact.Resource;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * A fault a bundle adds to the catalogue in its {@code explore.yaml}: a name and world changes in the
 * scenario format, with placeholders ({@link Placeholders}); {@code {pod}} is one pod drawn at random
 * among the live pods that carry every label of {@code pods} (all live pods when it is empty), e.g.
 * only replicas for "a replica reports it runs as primary".
 */
public record DeclaredFault(String name, Map<String, String> pods, List<WorldChange> changes) implements Fault {
    public DeclaredFault {
        pods = Map.copyOf(pods);
        changes = List.copyOf(changes);
    }

    public DeclaredFault(String name, List<WorldChange> changes) {
        this(name, Map.of(), changes);
    }

    /** The live pods {@code {pod}} may stand for: those with every label of {@link #pods}. */
    public List<Resource> candidates(World world) {
        return world.livePods().stream()
                .filter(p -> pods.entrySet().stream().allMatch(label -> p.hasLabel(label.getKey(), label.getValue())))
                .toList();
    }

    @Override
    public Optional<Drawn> draw(World world, RandomGenerator random) {
        String pod = null;
        if (Placeholders.mentionsPod(changes)) {
            Optional<String> chosen = Pick.one(candidates(world), random).map(p -> p.getName());
            if (chosen.isEmpty()) return Optional.empty();
            pod = chosen.get();
        }
        String description = pod == null ? name : name + " (" + pod + ")";
        return Placeholders.fill(changes, world, pod).map(filled -> new Drawn(description, java.time.Duration.ZERO, false, filled));
    }
}
