package dev.runbook.testkit.explore;

import dev.runbook.rules.fact.Primary;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * While an operation is under way (the primary's status is not the status at rest), a step gets a user's
 * edit besides its drawn faults, so that requests meet failovers, switchovers, backups and upgrades; at
 * rest the edits come only from the catalogue's draws.
 */
class RandomSourceTest {
    static final Map<String, Object> AT_REST = Map.of("phase", "Healthy");

    /** A fault that always happens and says which it is. */
    record Named(String name) implements Fault {
        @Override public Optional<Drawn> draw(World world, RandomGenerator random) { return Optional.of(Drawn.of(name)); }
    }

    static World world(String phase) {
        Primary primary = new Primary(Map.of("apiVersion", "example.dev/v1", "kind", "Thing",
                "metadata", Map.of("name", "t", "namespace", "demo"), "status", Map.of("phase", phase)));
        return new World(primary, List.of(), List.of(), List.of(), Instant.parse("2026-11-30T09:00:00Z"), 1, Duration.ZERO);
    }

    /** How many of 1,000 steps drew the user's edit. */
    static int editsIn1000Steps(World world, RandomSource.Edits edits) {
        RandomSource source = new RandomSource(List.of(new Named("a pod breaks")), Duration.ofSeconds(10), new SplittableRandom(7), edits);
        int edited = 0;
        for (int step = 1; step <= 1000; step++) {
            source.begin(step, world);
            for (Optional<Drawn> drawn = source.next(world); drawn.isPresent(); drawn = source.next(world)) {
                if (drawn.get().description().equals("the user edits")) edited++;
            }
        }
        return edited;
    }

    @Test
    void whileAnOperationIsUnderWayEveryStepGetsAUsersEdit() {
        RandomSource.Edits edits = new RandomSource.Edits(new Named("the user edits"), AT_REST);
        assertThat(editsIn1000Steps(world("FailingOver"), edits)).isEqualTo(1000);
    }

    @Test
    void atRestNoStepGetsOneBesidesTheCatalogues() {
        RandomSource.Edits edits = new RandomSource.Edits(new Named("the user edits"), AT_REST);
        assertThat(editsIn1000Steps(world("Healthy"), edits)).isZero();
    }

    @Test
    void withoutEditsOrAStatusAtRestNothingIsAdded() {
        assertThat(editsIn1000Steps(world("FailingOver"), RandomSource.Edits.NONE)).isZero();
        assertThat(editsIn1000Steps(world("FailingOver"), new RandomSource.Edits(new Named("the user edits"), Map.of()))).isZero();
    }
}
