package dev.runbook.operator.controller;

import io.javaoperatorsdk.operator.processing.retry.RetryExecution;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TransientBackoffTest {
    private static List<Long> delays(RetryExecution execution, int count) {
        List<Long> delays = new ArrayList<>();
        for (int i = 0; i < count; i++) delays.add(execution.nextDelay().orElseThrow());
        return delays;
    }

    @Test
    void theCeilingDoublesFromOneSecondToThirtyAndStaysThere() {
        RetryExecution highest = new TransientBackoff(Duration.ofMinutes(10), () -> 0.999_999).initExecution();
        assertThat(delays(highest, 8)).containsExactly(999L, 1_999L, 3_999L, 7_999L, 15_999L, 29_999L, 29_999L, 29_999L);
    }

    @Test
    void eachWaitIsDrawnBetweenHalfItsCeilingAndTheWholeOfIt() {
        RetryExecution lowest = new TransientBackoff(Duration.ofMinutes(10), () -> 0).initExecution();
        assertThat(delays(lowest, 7)).containsExactly(500L, 1_000L, 2_000L, 4_000L, 8_000L, 15_000L, 15_000L);

        RetryExecution middle = new TransientBackoff(Duration.ofMinutes(10), () -> 0.5).initExecution();
        assertThat(delays(middle, 3)).containsExactly(750L, 1_500L, 3_000L);
    }

    @Test
    void theReconcilePeriodCapsTheWaitButNeverBelowTheFirstRetry() {
        assertThat(new TransientBackoff(Duration.ofSeconds(5)).longest()).isEqualTo(Duration.ofSeconds(5));
        RetryExecution shortPeriod = new TransientBackoff(Duration.ofSeconds(5), () -> 0.999_999).initExecution();
        assertThat(delays(shortPeriod, 5)).containsExactly(999L, 1_999L, 3_999L, 4_999L, 4_999L);
        assertThat(new TransientBackoff(Duration.ofMillis(100)).longest()).isEqualTo(TransientBackoff.FIRST);
    }

    @Test
    void itNeverGivesUpAndCountsItsAttempts() {
        RetryExecution execution = new TransientBackoff(Duration.ofMinutes(10)).initExecution();
        List<Long> delays = delays(execution, 200);
        assertThat(delays).allSatisfy(delay -> assertThat(delay).isBetween(500L, TransientBackoff.LONGEST.toMillis()));
        assertThat(execution.isLastAttempt()).isFalse();
        assertThat(execution.getAttemptCount()).isEqualTo(200);
        assertThat(new TransientBackoff(Duration.ofMinutes(10)).initExecution().getAttemptCount())
                .as("each run of failures starts afresh").isZero();
    }
}
