package dev.runbook.benchmarks;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.DecidingBundle;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.isolation.IsolatedBundle;
import dev.runbook.operator.isolation.WorkerLauncher;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;

/**
 * What a decision in a worker process costs against one in the operator's process, in CPU time, which a
 * shared machine's load does not inflate as it does the wall clock: blocks of cycles of one shipped
 * sample, alternating in-process (A) and isolated (B) in one JVM, A B A B ..., each block's CPU time
 * taken as the whole of it: this JVM's (every thread: the caller's encoding and decoding, the reader
 * of the worker's answers, the JIT and the collector) plus, for B, the worker's process tree. Prints
 * each block's CPU (and, for B, the worker's part of it) and wall time per cycle, and the medians'
 * ratio B / A.
 *
 * <p>Arguments: {@code [cycles per block, default 2000] [blocks of each, default 4] [sample, default
 * postgres-cluster/primary-failed]}. Needs bubblewrap: the worker is the default sandbox's.
 */
public final class IsolatedCycleCpuTime {
    private IsolatedCycleCpuTime() {}

    public static void main(String[] args) {
        int cycles = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int blocks = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        String sample = args.length > 2 ? args[2] : "postgres-cluster/primary-failed";
        CompiledBundle inProcess = ShippedSamples.compile(sample);
        Observation observation = ShippedSamples.observation(inProcess, sample);
        var source = BundleLoader.load(ShippedSamples.bundleDirectory(sample));
        IsolatedBundle isolated = IsolatedBundle.load(source, source.files(), Policy.DEFAULT,
                WorkerLauncher.of(Policy.DEFAULT.isolation(), 2), false);
        try {
            // Warm both up as long as a block takes several times over, so the JIT has settled in both JVMs.
            for (int i = 0; i < 3; i++) {
                block(inProcess, observation, cycles, null);
                block(isolated, observation, cycles, isolated);
            }
            double[] a = new double[blocks];
            double[] b = new double[blocks];
            System.out.printf("%-6s %14s %14s %14s%n", "block", "cpu µs/cycle", "worker's part", "wall µs/cycle");
            for (int i = 0; i < blocks; i++) {
                double[] inside = block(inProcess, observation, cycles, null);
                double[] outside = block(isolated, observation, cycles, isolated);
                a[i] = inside[0];
                b[i] = outside[0];
                System.out.printf("A%-5d %14.0f %14s %14.0f%nB%-5d %14.0f %14.0f %14.0f%n", i + 1, inside[0], "", inside[2],
                        i + 1, outside[0], outside[1], outside[2]);
            }
            Arrays.sort(a);
            Arrays.sort(b);
            System.out.printf("%s: CPU per cycle, median of %d blocks of %d: in-process %.0f µs, isolated %.0f µs "
                    + "(this JVM and the worker), isolated / in-process %.2f%n", sample, blocks, cycles, a[blocks / 2], b[blocks / 2],
                    b[blocks / 2] / a[blocks / 2]);
        } finally {
            isolated.close();
        }
    }

    /**
     * CPU (all of it, and the worker's part) and wall microseconds per cycle over {@code cycles} cycles;
     * the worker's CPU counted when {@code worker} is given.
     */
    private static double[] block(DecidingBundle bundle, Observation observation, int cycles, IsolatedBundle worker) {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long own0 = os.getProcessCpuTime();
        long worker0 = workerCpu(worker);
        long wall0 = System.nanoTime();
        for (int i = 0; i < cycles; i++) bundle.decide(observation, Policy.DEFAULT);
        long wall = System.nanoTime() - wall0;
        long own = os.getProcessCpuTime() - own0;
        long workers = workerCpu(worker) - worker0;
        return new double[] {(own + workers) / 1e3 / cycles, workers / 1e3 / cycles, wall / 1e3 / cycles};
    }

    /** The CPU time of every process under this JVM: the worker, its sandbox's monitor. */
    private static long workerCpu(IsolatedBundle worker) {
        if (worker == null) return 0;
        return ProcessHandle.current().descendants().mapToLong(p -> p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L)).sum();
    }
}
