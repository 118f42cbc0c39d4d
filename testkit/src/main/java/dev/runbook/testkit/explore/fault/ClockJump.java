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
 * The clock jumps ahead: past the failover delay, past the next hourly cron slot, or past a day's
 * (the operator was away, or a requeue came late).
 */
public final class ClockJump implements Fault {
    @Override public String name() { return "clock jump"; }

    @Override public boolean movesTime() { return true; }

    @Override
    public Optional<Drawn> draw(World world, RandomGenerator random) {
        List<Duration> jumps = List.of(world.failoverDelay().plusSeconds(1), Duration.ofHours(1), Duration.ofHours(24));
        Duration jump = jumps.get(random.nextInt(jumps.size()));
        return Optional.of(new Drawn("the clock jumps " + dev.runbook.rules.function.Durations.format(jump) + " ahead",
                jump, false, List.of()));
    }
}
