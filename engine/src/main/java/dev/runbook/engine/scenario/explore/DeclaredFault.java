package dev.runbook.engine.scenario.explore;

import dev.runbook.engine.scenario.WorldChange;

import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * A fault a bundle adds to the catalogue in its {@code explore.yaml}: a name and world changes in the
 * scenario format, with placeholders ({@link Placeholders}); {@code {pod}} is one pod drawn at random.
 */
public record DeclaredFault(String name, List<WorldChange> changes) implements Fault {
    public DeclaredFault {
        changes = List.copyOf(changes);
    }

    @Override
    public Optional<Drawn> draw(World world, RandomGenerator random) {
        String pod = null;
        if (Placeholders.mentionsPod(changes)) {
            Optional<String> chosen = Pick.one(world.livePods(), random).map(p -> p.getName());
            if (chosen.isEmpty()) return Optional.empty();
            pod = chosen.get();
        }
        String description = pod == null ? name : name + " (" + pod + ")";
        return Placeholders.fill(changes, world, pod).map(filled -> new Drawn(description, java.time.Duration.ZERO, false, filled));
    }
}
