package dev.runbook.testkit.explore;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Draws a run's steps from the catalogue with one generator. Each step has no fault four times in
 * ten, one fault five times in ten, and two once in ten. Faults that move time (a clock jump, a
 * restart) are drawn first, as they decide how much time the step lets pass; the others are drawn
 * one after the other against the world as the previous one left it.
 */
final class RandomSource implements Trial.Source {
    private final List<Fault> catalogue;
    private final Duration tick;
    private final RandomGenerator random;
    private final Deque<Fault> pending = new ArrayDeque<>();

    RandomSource(List<Fault> catalogue, Duration tick, RandomGenerator random) {
        this.catalogue = catalogue;
        this.tick = tick;
        this.random = random;
    }

    @Override
    public Trial.Start begin(int step, World world) {
        pending.clear();
        int roll = random.nextInt(10);
        int count = roll < 4 ? 0 : roll < 9 ? 1 : 2;
        Duration advance = Duration.ofSeconds(1 + random.nextLong(Math.max(1, tick.getSeconds() * 2)));
        List<String> descriptions = new ArrayList<>();
        boolean immediate = false;
        for (int i = 0; i < count; i++) {
            Fault fault = catalogue.get(random.nextInt(catalogue.size()));
            if (!fault.movesTime()) {
                pending.add(fault);
                continue;
            }
            Optional<Drawn> drawn = fault.draw(world, random);
            if (drawn.isEmpty()) continue;
            descriptions.add(drawn.get().description());
            immediate |= drawn.get().immediate();
            advance = advance.plus(drawn.get().advance());
        }
        return new Trial.Start(immediate ? Duration.ZERO : advance, descriptions);
    }

    @Override
    public Optional<Drawn> next(World world) {
        while (!pending.isEmpty()) {
            Optional<Drawn> drawn = pending.poll().draw(world, random);
            if (drawn.isPresent()) return drawn;
        }
        return Optional.empty();
    }
}
