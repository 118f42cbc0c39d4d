package dev.runbook.operator.isolation;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class IdleCpuWatchTest {
    static final long SECOND = Duration.ofSeconds(1).toNanos();

    @Test
    void aWorkerThatBurnsMoreThanHalfAProcessorWhileIdleForTheWholeWindowIsToBeKilled() {
        IdleCpuWatch watch = new IdleCpuWatch();
        String verdict = null;
        for (int s = 0; s <= 20 && verdict == null; s++) verdict = watch.idle(s * SECOND, s * SECOND * 9 / 10);
        assertThat(verdict).contains("without a request to work on");
    }

    @Test
    void garbageCollectionAndCompilingAfterABurstAreNotEnough() {
        IdleCpuWatch watch = new IdleCpuWatch();
        // Two seconds of CPU in the first second of quiet, then nothing: 10% over the window.
        assertThat(watch.idle(0, 0)).isNull();
        assertThat(watch.idle(SECOND, 2 * SECOND)).isNull();
        for (int s = 2; s <= 60; s++) assertThat(watch.idle(s * SECOND, 2 * SECOND)).isNull();
    }

    @Test
    void aRequestInFlightStartsTheQuietPeriodAgain() {
        IdleCpuWatch watch = new IdleCpuWatch();
        for (int s = 0; s < 19; s++) assertThat(watch.idle(s * SECOND, s * SECOND)).isNull();
        watch.busy();
        // Busy CPU is the request's: the window starts over from the next quiet sample.
        for (int s = 19; s < 38; s++) assertThat(watch.idle(s * SECOND, s * SECOND)).isNull();
    }

    @Test
    void aWorkerThatKeepsDyingWaitsLongerEachTimeUpToFiveMinutes() {
        assertThat(WorkerSession.backoff(1)).isEqualTo(Duration.ofSeconds(5));
        assertThat(WorkerSession.backoff(2)).isEqualTo(Duration.ofSeconds(10));
        assertThat(WorkerSession.backoff(4)).isEqualTo(Duration.ofSeconds(40));
        assertThat(WorkerSession.backoff(10)).isEqualTo(Duration.ofMinutes(5));
        assertThat(WorkerSession.backoff(100)).isEqualTo(Duration.ofMinutes(5));
    }
}
