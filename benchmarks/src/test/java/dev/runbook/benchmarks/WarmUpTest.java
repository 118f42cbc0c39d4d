package dev.runbook.benchmarks;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;

class WarmUpTest {
    /** A compiler busy for {@code busyMillisPerCycle} per cycle until cycle {@code busyUntil}, then idle. */
    private static LongSupplier compilerBusyUntil(AtomicInteger cycles, int busyUntil, long busyMillisPerCycle) {
        return () -> Math.min(cycles.get(), busyUntil) * busyMillisPerCycle;
    }

    @Test
    void warmsUpPastTheMinimumUntilAWindowPassesWithTheCompilersIdle() {
        AtomicInteger cycles = new AtomicInteger();
        WarmUp.Result result = WarmUp.run(8000, 60_000, cycles::incrementAndGet, compilerBusyUntil(cycles, 21_500, 1));
        // The window 21,000-22,000 still compiled for 500 ms; 22,000-23,000 did not.
        assertThat(result).isEqualTo(new WarmUp.Result(23_000, true));
        assertThat(cycles.get()).isEqualTo(23_000);
    }

    @Test
    void stopsAtTheMinimumPlusOneWindowWhenTheCompilersAreAlreadyIdle() {
        AtomicInteger cycles = new AtomicInteger();
        assertThat(WarmUp.run(8000, 60_000, cycles::incrementAndGet, () -> 42)).isEqualTo(new WarmUp.Result(9000, true));
    }

    @Test
    void givesUpAtTheMaximumAndSaysTheCompilersWereStillBusy() {
        AtomicInteger cycles = new AtomicInteger();
        WarmUp.Result result = WarmUp.run(8000, 12_500, cycles::incrementAndGet, compilerBusyUntil(cycles, Integer.MAX_VALUE, 1));
        assertThat(result).isEqualTo(new WarmUp.Result(12_500, false));
        assertThat(cycles.get()).isEqualTo(12_500);
        assertThat(result).hasToString("12500 (JIT still busy)");
    }
}
