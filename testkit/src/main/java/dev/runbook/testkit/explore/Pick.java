package dev.runbook.testkit.explore;

import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/** Draws one item from a list with the run's generator. */
public final class Pick {
    private Pick() {}

    public static <T> Optional<T> one(List<T> items, RandomGenerator random) {
        return items.isEmpty() ? Optional.empty() : Optional.of(items.get(random.nextInt(items.size())));
    }
}
