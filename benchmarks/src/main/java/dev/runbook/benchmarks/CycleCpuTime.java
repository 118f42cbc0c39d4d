package dev.runbook.benchmarks;

import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.decide.Observation;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;

/**
 * One warm decision cycle of each shipped sample, timed by the thread's own CPU time as well as by
 * the wall clock. On a shared machine the wall clock also counts the time other processes held the
 * core; CPU time does not, so it is the steadier figure under load (both are printed). Also prints
 * the bytes the thread allocated per cycle.
 *
 * <p>Arguments: {@code [cycles per sample, default 5000] [sample ...]} (default: every sample). Each
 * sample is warmed up for at least as many cycles as are measured, then on until the JIT compilers
 * have settled ({@link WarmUp}, at most {@value #WARM_UP_FACTOR}× the cycles); the warm-up's length
 * and the compilers' time during the measurement are printed with the figures.
 */
public final class CycleCpuTime {
    static final int WARM_UP_FACTOR = 10;

    private CycleCpuTime() {}

    public static void main(String[] args) {
        int cycles = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        List<String> samples = args.length > 1 ? Arrays.asList(args).subList(1, args.length) : ShippedSamples.all();
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        var compiler = ManagementFactory.getCompilationMXBean();
        System.out.printf("%-52s %9s %9s %9s %9s %10s %8s %7s%n", "sample", "cpu p50", "cpu p99", "wall p50", "wall p99",
                "bytes/op", "warm-up", "jit ms");
        for (String sample : samples) {
            CompiledBundle bundle = ShippedSamples.compile(sample);
            Observation observation = ShippedSamples.observation(bundle, sample);
            WarmUp.Result warmUp = WarmUp.run(cycles, cycles * WARM_UP_FACTOR, () -> DecisionCycle.run(bundle, observation));
            long compiling = compiler.getTotalCompilationTime();
            long[] cpu = new long[cycles];
            long[] wall = new long[cycles];
            long allocated = threads.getThreadAllocatedBytes(thread);
            for (int i = 0; i < cycles; i++) {
                long c0 = threads.getCurrentThreadCpuTime();
                long w0 = System.nanoTime();
                DecisionCycle.run(bundle, observation);
                wall[i] = System.nanoTime() - w0;
                cpu[i] = threads.getCurrentThreadCpuTime() - c0;
            }
            allocated = threads.getThreadAllocatedBytes(thread) - allocated;
            compiling = compiler.getTotalCompilationTime() - compiling;
            Arrays.sort(cpu);
            Arrays.sort(wall);
            System.out.printf("%-52s %7.0f µs %7.0f µs %7.0f µs %7.0f µs %10d %8s %7d%n", sample,
                    cpu[cycles / 2] / 1e3, cpu[cycles * 99 / 100] / 1e3, wall[cycles / 2] / 1e3,
                    wall[cycles * 99 / 100] / 1e3, allocated / cycles, warmUp, compiling);
        }
    }
}
