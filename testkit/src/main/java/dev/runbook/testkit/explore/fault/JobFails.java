package dev.runbook.testkit.explore.fault;

import dev.runbook.testkit.explore.Drawn;
import dev.runbook.testkit.explore.Fault;
import dev.runbook.testkit.explore.Pick;
import dev.runbook.testkit.explore.World;

import java.util.Optional;
import java.util.random.RandomGenerator;

/** A running Job fails. */
public final class JobFails implements Fault {
    @Override public String name() { return "job fails"; }

    @Override
    public Optional<Drawn> draw(World world, RandomGenerator random) {
        return Pick.one(world.runningJobs(), random)
                .map(job -> Drawn.of("the job " + job.getName() + " fails", Drawn.shortForm("jobFails", "Job", job.getName())));
    }
}
