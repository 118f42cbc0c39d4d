package dev.runbook.benchmarks;

import dev.runbook.engine.bundle.ParameterValues;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.decide.Observation;
import dev.runbook.rules.fact.Params;
import org.kie.api.KieBase;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * A cross-check of the JMH ratios for a shared, noisy machine: the two sides of each comparison run
 * alternately in one warm JVM (A B B A A B ...), so that a burst of load from elsewhere hits both
 * sides instead of one JMH fork. Prints the median time of each side and the median of the ratios of
 * neighbouring blocks. Timed with {@code System.nanoTime}, without JMH's safeguards; JMH stays the
 * measurement of record, this only checks that its ratios are not an artefact of when each fork ran.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.runbook.benchmarks.InterleavedComparison</pre>
 */
public final class InterleavedComparison {
    private static volatile Object sink;

    private InterleavedComparison() {}

    public static void main(String[] args) {
        System.out.printf("load average at start: %.2f (%d processors)%n%n",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                Runtime.getRuntime().availableProcessors());
        System.out.println("| Comparison | A | B | A median | B median | B / A (median of paired blocks) | blocks |");
        System.out.println("|---|---|---|---|---|---|---|");

        Map<String, String> drl = GeneratedBundle.drl(100);
        compare("compile 100 rules (ms)", "classic", "executable model", 1e6, 3, 10, 1,
                () -> timed(() -> { try (var b = CompilePaths.classic(drl)) { sink = b.kieBase(); } }),
                () -> timed(() -> { try (var b = CompilePaths.executableModel(drl)) { sink = b.kieBase(); } }));

        Params params = ParameterValues.resolve(
                dev.runbook.engine.bundle.BundleSpecParser.parse(GeneratedBundle.bundleYaml()), Map.of());
        try (CompilePaths.Built classic = CompilePaths.classic(drl);
             CompilePaths.Built executable = CompilePaths.executableModel(drl)) {
            for (int objects : new int[] {10, 100}) {
                Observation observation = ClusterState.observation(objects);
                compare("bare cycle, 100 rules, " + objects + " objects (us)", "classic", "executable model",
                        1e3, 30, 60, 200,
                        cycle(classic.kieBase(), observation, params),
                        cycle(executable.kieBase(), observation, params));
            }
        }

        CompiledBundle bundle = BundleCompiler.compile(GeneratedBundle.source(30));
        for (int objects : new int[] {15, 100}) {
            Observation observation = ClusterState.observation(objects);
            Params bundleParams = ParameterValues.resolve(bundle.spec(), Map.of());
            compare("30 rules, " + objects + " objects (us)", "bare session", "DecisionCycle.run",
                    1e3, 30, 60, 200,
                    cycle(bundle.kieBase(), observation, bundleParams),
                    () -> timed(() -> sink = DecisionCycle.run(bundle, observation)));
        }
        System.out.printf("%nload average at end: %.2f%n", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static LongSupplier cycle(KieBase kieBase, Observation observation, Params params) {
        return () -> timed(() -> sink = CompilePaths.cycle(kieBase, observation, params));
    }

    private static long timed(Runnable r) {
        long start = System.nanoTime();
        r.run();
        return System.nanoTime() - start;
    }

    /**
     * Runs {@code warmup} then {@code blocks} pairs of blocks of {@code perBlock} operations, A and B
     * in alternating order, and prints one table row.
     */
    private static void compare(String what, String aName, String bName, double unit, int warmup, int blocks,
                                int perBlock, LongSupplier a, LongSupplier b) {
        for (int i = 0; i < warmup; i++) {
            for (int j = 0; j < perBlock; j++) { a.getAsLong(); b.getAsLong(); }
        }
        List<Long> allA = new ArrayList<>();
        List<Long> allB = new ArrayList<>();
        double[] ratios = new double[blocks];
        for (int i = 0; i < blocks; i++) {
            long[] blockA = new long[perBlock];
            long[] blockB = new long[perBlock];
            boolean aFirst = i % 2 == 0;
            for (int side = 0; side < 2; side++) {
                boolean runA = (side == 0) == aFirst;
                long[] into = runA ? blockA : blockB;
                for (int j = 0; j < perBlock; j++) into[j] = (runA ? a : b).getAsLong();
            }
            ratios[i] = median(blockB) / median(blockA);
            for (long t : blockA) allA.add(t);
            for (long t : blockB) allB.add(t);
        }
        System.out.printf("| %s | %s | %s | %.1f | %.1f | %.2f | %d x %d |%n", what, aName, bName,
                median(allA.stream().mapToLong(Long::longValue).toArray()) / unit,
                median(allB.stream().mapToLong(Long::longValue).toArray()) / unit,
                median(ratios), blocks, perBlock);
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }
}
