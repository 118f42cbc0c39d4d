package dev.runbook.benchmarks;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

/**
 * Warms a cycle up until the JIT compilers have settled, not for a fixed count. A decision cycle runs
 * a great deal of code (Drools' network, MVEL's interpreter, every rule's generated classes): on
 * this machine the compilers were still at work, and some of it deoptimized and compiled again,
 * 20,000 cycles in, and a measurement taken in the middle of that is as slow as the compiler is
 * late. That, not the engine, made the median of one JVM 1.7× another's (docs/performance-log.md, "The
 * fifth pass").
 *
 * <p>Runs at least {@code atLeast} cycles, then on, a window of {@value #WINDOW} cycles at a time,
 * until a window passes with the compilers busy for under {@value #QUIET_MILLIS} ms (the JVM's total
 * compilation time), or {@code atMost} cycles have run.
 */
final class WarmUp {
    static final int WINDOW = 1000;
    static final long QUIET_MILLIS = 20;

    /** How many cycles the warm-up ran, and whether the compilers had settled by then. */
    record Result(int cycles, boolean settled) {
        @Override
        public String toString() {
            return cycles + (settled ? "" : " (JIT still busy)");
        }
    }

    private WarmUp() {}

    static Result run(int atLeast, int atMost, Runnable cycle) {
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        if (compiler == null || !compiler.isCompilationTimeMonitoringSupported()) {
            for (int i = 0; i < atLeast; i++) cycle.run();
            return new Result(atLeast, false);
        }
        return run(atLeast, atMost, cycle, compiler::getTotalCompilationTime);
    }

    /** As above, with the compilers' total time in milliseconds read from {@code compileMillis}. */
    static Result run(int atLeast, int atMost, Runnable cycle, LongSupplier compileMillis) {
        int cycles = 0;
        for (; cycles < atLeast; cycles++) cycle.run();
        while (cycles < atMost) {
            long before = compileMillis.getAsLong();
            int window = Math.min(WINDOW, atMost - cycles);
            for (int i = 0; i < window; i++) cycle.run();
            cycles += window;
            if (compileMillis.getAsLong() - before < QUIET_MILLIS) return new Result(cycles, true);
        }
        return new Result(cycles, false);
    }
}
