package dev.runbook.operator.isolation;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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

    /**
     * Two spinning processes pinned to one processor: their CPU time is one processor's at most, however
     * idle the machine, but they are runnable all the time. Counting only CPU time, a spinning thread on a
     * busy machine stayed under the share and its worker was never killed.
     */
    @Test
    void demandCountsTheTimeSpentWaitingForAProcessor() throws Exception {
        String spin = "taskset -c 0 sh -c 'while :; do :; done'";
        Process spinners = new ProcessBuilder("sh", "-c", spin + " & " + spin + " & wait").start();
        try {
            ProcessHandle root = spinners.toHandle();
            await().atMost(Duration.ofSeconds(10)).until(() -> root.descendants().count() >= 2);
            long startWall = System.nanoTime();
            long startCpu = IdleCpuWatch.cpuNanos(root);
            long startDemand = IdleCpuWatch.demandNanos(root);
            AtomicLong wall = new AtomicLong();

            await().atMost(Duration.ofSeconds(60)).until(() -> {
                wall.set(System.nanoTime() - startWall);
                return wall.get() > 2 * SECOND && IdleCpuWatch.demandNanos(root) - startDemand > 1.5 * wall.get();
            });

            assertThat(IdleCpuWatch.cpuNanos(root) - startCpu).isLessThan((long) (1.2 * (System.nanoTime() - startWall)));
        } finally {
            spinners.descendants().forEach(ProcessHandle::destroyForcibly);
            spinners.destroyForcibly();
        }
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
