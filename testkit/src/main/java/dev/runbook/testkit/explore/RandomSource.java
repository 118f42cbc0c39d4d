package dev.runbook.testkit.explore;

import dev.runbook.testkit.scenario.SubsetMatch;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Draws a run's steps from the catalogue with one generator. Each step has no fault four times in
 * ten, one fault five times in ten, and two once in ten. Faults that move time (a clock jump, a
 * restart) are drawn first, as they decide how much time the step lets pass; the others are drawn
 * one after the other against the world as the previous one left it.
 *
 * <p>While an operation is under way (the primary's status is not the status at rest that the
 * convergence expects: a failover, a switchover, a backup, an upgrade), every step also gets a user's
 * edit of the spec. An operation lasts a cycle or a few of a run's twenty, and an edit drawn from the
 * catalogue is one of a dozen spec fields, so edits drawn from the catalogue alone rarely met one (a
 * switchover asked for during a promotion: about once in 500 runs); a request that arrives while
 * something else is under way is where a runbook most often forgets to answer or acts unsafely.
 */
final class RandomSource implements Trial.Source {
    private final List<Fault> catalogue;
    private final Duration tick;
    private final RandomGenerator random;
    private final Edits edits;
    private final Deque<Fault> pending = new ArrayDeque<>();

    /**
     * The user's edits of the spec, and the primary's status at rest ({@code converge.expect.status}).
     * {@link #NONE} when the bundle has no CRD to draw edits from.
     */
    record Edits(Fault userEdits, Map<String, Object> restStatus) {
        static final Edits NONE = new Edits(null, Map.of());

        boolean underWay(World world) {
            return userEdits != null && !restStatus.isEmpty()
                    && !SubsetMatch.matches(restStatus, world.primary().map("status"));
        }
    }

    RandomSource(List<Fault> catalogue, Duration tick, RandomGenerator random, Edits edits) {
        this.catalogue = catalogue;
        this.tick = tick;
        this.random = random;
        this.edits = edits;
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
        if (edits.underWay(world)) pending.add(edits.userEdits());
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
