package dev.runbook.rules.fact;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ClockTest {
    private static final Instant NOW = Instant.parse("2026-11-30T09:00:00Z");
    private final Clock clock = new Clock(NOW);

    @Test
    void holdsTheTimeOfTheCycle() {
        assertThat(clock.getNow()).isEqualTo(NOW);
        assertThat(clock).hasToString("Clock 2026-11-30T09:00:00Z");
    }

    @Test
    void needsATime() {
        assertThatIllegalArgumentException().isThrownBy(() -> new Clock(null)).withMessage("a clock needs a time");
    }

    @Test
    void measuresTimeSinceAnInstant() {
        assertThat(clock.since(Instant.parse("2026-11-30T08:58:30Z"))).isEqualTo(Duration.ofSeconds(90));
        assertThat(clock.secondsSince(Instant.parse("2026-11-30T08:00:00Z"))).isEqualTo(3600);
        assertThat(clock.secondsSince(NOW)).isZero();
    }

    @Test
    void anInstantInTheFutureIsANegativeDuration() {
        assertThat(clock.since(Instant.parse("2026-11-30T09:01:00Z"))).isEqualTo(Duration.ofMinutes(-1));
        assertThat(clock.secondsSince(Instant.parse("2026-11-30T09:00:30Z"))).isEqualTo(-30);
    }

    @Test
    void secondsSinceRoundsTowardsThePastWholeSecond() {
        assertThat(clock.secondsSince(Instant.parse("2026-11-30T08:59:58.500Z"))).isEqualTo(1);
    }

    @Test
    void hasElapsedCountsTheBoundaryAsElapsed() {
        Instant then = Instant.parse("2026-11-30T08:59:30Z");
        assertThat(clock.hasElapsed(then, "30s")).isTrue();
        assertThat(clock.hasElapsed(then, "29s")).isTrue();
        assertThat(clock.hasElapsed(then, "31s")).isFalse();
        assertThat(clock.hasElapsed(then, "1m")).isFalse();
    }

    @Test
    void hasElapsedIsFalseForAMissingInstant() {
        assertThat(clock.hasElapsed(null, "0s")).isFalse();
    }

    @Test
    void hasElapsedRefusesABadDuration() {
        assertThatIllegalArgumentException().isThrownBy(() -> clock.hasElapsed(NOW, "30"))
                .withMessageStartingWith("'30' is not a duration");
    }
}
