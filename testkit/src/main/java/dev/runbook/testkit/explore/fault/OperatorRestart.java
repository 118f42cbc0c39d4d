package dev.runbook.testkit.explore.fault;

import dev.runbook.testkit.explore.Drawn;
import dev.runbook.testkit.explore.Fault;
import dev.runbook.testkit.explore.Pick;
import dev.runbook.testkit.explore.World;

import java.util.Optional;
import java.util.random.RandomGenerator;

import java.time.Duration;
import java.util.List;

/**
 * The operator restarts between two cycles. It keeps nothing between cycles (each builds a fresh
 * session from what it observes), so what a restart changes is when the next cycle comes: at once,
 * as a new leader reconciles everything it finds, with no time passing and nothing else changed.
 * The explorer carries nothing from one cycle to the next but the simulated cluster itself.
 */
public final class OperatorRestart implements Fault {
    @Override public String name() { return "operator restart"; }

    @Override public boolean movesTime() { return true; }

    @Override
    public Optional<Drawn> draw(World world, RandomGenerator random) {
        return Optional.of(new Drawn("the operator restarts", Duration.ZERO, true, List.of()));
    }
}
