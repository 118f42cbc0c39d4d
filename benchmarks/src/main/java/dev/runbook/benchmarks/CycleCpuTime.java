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
 * <p>Arguments: {@code [cycles per sample, default 5000] [sample ...]} (default: every sample).
 */
public final class CycleCpuTime {
    private CycleCpuTime() {}

    public static void main(String[] args) {
        int cycles = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        List<String> samples = args.length > 1 ? Arrays.asList(args).subList(1, args.length) : ShippedSamples.all();
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        System.out.printf("%-52s %9s %9s %9s %9s %10s%n", "sample", "cpu p50", "cpu p99", "wall p50", "wall p99", "bytes/op");
        for (String sample : samples) {
            CompiledBundle bundle = ShippedSamples.compile(sample);
            Observation observation = ShippedSamples.observation(bundle, sample);
            for (int i = 0; i < cycles; i++) DecisionCycle.run(bundle, observation);
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
            Arrays.sort(cpu);
            Arrays.sort(wall);
            System.out.printf("%-52s %7.0f µs %7.0f µs %7.0f µs %7.0f µs %10d%n", sample,
                    cpu[cycles / 2] / 1e3, cpu[cycles * 99 / 100] / 1e3, wall[cycles / 2] / 1e3,
                    wall[cycles * 99 / 100] / 1e3, allocated / cycles);
        }
    }
}
