package dev.runbook.testkit.explore.fault;

import dev.runbook.testkit.explore.Drawn;
import dev.runbook.testkit.explore.Fault;
import dev.runbook.testkit.explore.Pick;
import dev.runbook.testkit.explore.World;

import java.util.Optional;
import java.util.random.RandomGenerator;

/** A running Job completes: not a fault, but the world moving on, which faults interleave with. */
public final class JobSucceeds implements Fault {
    @Override public String name() { return "job succeeds"; }

    @Override
    public Optional<Drawn> draw(World world, RandomGenerator random) {
        return Pick.one(world.runningJobs(), random)
                .map(job -> Drawn.of("the job " + job.getName() + " completes", Drawn.shortForm("jobSucceeds", "Job", job.getName())));
    }
}
