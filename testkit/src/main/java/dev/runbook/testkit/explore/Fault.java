package dev.runbook.testkit.explore;

import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * One kind of thing that can go wrong (or simply happen) in the world between two cycles. A fault is
 * drawn against the current {@link World} and answers with the world changes it makes, in the
 * scenario format, so that any sequence of faults is also a drill that {@code runbook test} replays.
 */
public interface Fault {
    /** How the fault is named in the catalogue and in reports, e.g. {@code pod not ready}. */
    String name();

    /**
     * @param random the run's generator: the only source of choice, so that a seed gives one run
     * @return what the fault does now, or empty when it cannot happen in this world (no pod to break)
     */
    Optional<Drawn> draw(World world, RandomGenerator random);

    /** Whether the fault only moves time (a clock jump, a restart) and so is drawn before the step's time passes. */
    default boolean movesTime() { return false; }
}
