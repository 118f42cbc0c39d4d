package dev.runbook.testkit.explore.fault;

import dev.runbook.testkit.explore.Drawn;
import dev.runbook.testkit.explore.Fault;
import dev.runbook.testkit.explore.Pick;
import dev.runbook.testkit.explore.World;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * An instance reports something on its pod, as the bundle's contract with its pods allows
 * ({@code contract.reports} in explore.yaml): one annotation, one of the values the contract gives it, or
 * the annotation gone; on any live pod, whether or not it is the one the contract expects to say so,
 * since an instance that reports out of turn is what the runbook must withstand.
 *
 * @param values the values it may take; null stands for the annotation removed
 */
public record InstanceReport(String annotation, List<String> values) implements Fault {
    public InstanceReport {
        values = java.util.Collections.unmodifiableList(new ArrayList<>(values));
    }

    @Override public String name() { return "an instance reports " + annotation; }

    @Override
    public Optional<Drawn> draw(World world, RandomGenerator random) {
        return Pick.one(world.livePods(), random).map(pod -> {
            String value = values.isEmpty() ? null : values.get(random.nextInt(values.size()));
            return Drawn.of(pod.getName() + " reports " + annotation + (value == null ? " no more" : ": " + value),
                    Drawn.annotate("Pod", pod.getName(), annotation, value));
        });
    }
}
