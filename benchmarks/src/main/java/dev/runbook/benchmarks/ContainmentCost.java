package dev.runbook.benchmarks;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.state.ObservationBuilder;
import dev.runbook.engine.state.StateFiles;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * What containment costs on the shipped postgres-cluster bundle: a warm compile (which now also
 * checks and instruments the bytecode) and one decision cycle over samples/primary-failed.yaml (which
 * now runs instrumented code under a budget). Prints medians; run the same class on a build without
 * containment to compare (docs/performance-log.md, "Containment"). Run from the repository root:
 * {@code java -cp benchmarks/target/benchmarks.jar dev.runbook.benchmarks.ContainmentCost}.
 */
public final class ContainmentCost {
    private static final Path BUNDLE = Path.of("runbooks/postgres-cluster");
    private static Object sink;

    private ContainmentCost() {}

    public static void main(String[] args) {
        BundleSource source = BundleLoader.load(BUNDLE);
        long[] compiles = new long[25];
        for (int i = 0; i < 10; i++) sink = BundleCompiler.compile(source);
        for (int i = 0; i < compiles.length; i++) {
            long start = System.nanoTime();
            sink = BundleCompiler.compile(source);
            compiles[i] = System.nanoTime() - start;
        }
        CompiledBundle bundle = BundleCompiler.compile(source);
        var objects = StateFiles.read(List.of(BUNDLE.resolve("samples/primary-failed.yaml")));
        Observation observation = ObservationBuilder.build(bundle.spec(), objects, null,
                Instant.parse("2026-11-30T09:00:00Z"), Map.of());
        for (int i = 0; i < 3_000; i++) sink = DecisionCycle.run(bundle, observation);
        long[] cycles = new long[5_000];
        for (int i = 0; i < cycles.length; i++) {
            long start = System.nanoTime();
            sink = DecisionCycle.run(bundle, observation);
            cycles[i] = System.nanoTime() - start;
        }
        System.out.printf("postgres-cluster compile, warm: median %.1f ms (25 shots)%n", median(compiles) / 1e6);
        System.out.printf("postgres-cluster cycle, primary-failed: median %.1f us, p90 %.1f us (5000 cycles)%n",
                median(cycles) / 1e3, percentile(cycles, 0.9) / 1e3);
    }

    private static double median(long[] values) { return percentile(values, 0.5); }

    private static double percentile(long[] values, double p) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.min(sorted.length - 1, Math.round(p * (sorted.length - 1)))];
    }
}
