package dev.runbook.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * One decision cycle of the engine as built by two (or more) benchmark jars, in one JVM: each jar in a
 * class loader of its own, their cycles in alternating blocks (A B B A ...), thread CPU time. Separate
 * JVMs differ by more than a change does (the JIT compiles a cycle's code differently from one run to
 * the next); here both sides share the machine's moments and the JVM, and the ratio of their medians
 * is what a change did. Also prints the bytes allocated per cycle and whether both decided the same
 * (the fired rules' and the plan's text).
 *
 * <pre>java -Xms512m -Xmx512m -cp benchmarks/target/benchmarks.jar dev.runbook.benchmarks.CycleCpuTimeAcrossJars \
 *     BEFORE.jar AFTER.jar [-Dsample=postgres-cluster/primary-failed] [-Dblocks=12]</pre>
 */
public final class CycleCpuTimeAcrossJars {
    private static final int BLOCK = 1000;

    private CycleCpuTimeAcrossJars() {}

    public static void main(String[] jars) throws Exception {
        String sample = System.getProperty("sample", "postgres-cluster/primary-failed");
        int blocks = Integer.getInteger("blocks", 12);
        List<Runnable> cycles = new ArrayList<>();
        String decided = null;
        for (String jar : jars) {
            Engine engine = Engine.load(Path.of(jar), sample);
            String decision = engine.decide();
            if (decided != null && !decided.equals(decision)) {
                System.out.println("the jars decide differently: " + jar + " against " + jars[0]);
            }
            decided = decision;
            cycles.add(engine::cycle);
        }
        WarmUp.run(30 * BLOCK, 100 * BLOCK, () -> cycles.forEach(Runnable::run));
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        int n = cycles.size();
        List<List<Long>> medians = new ArrayList<>();
        List<List<Long>> p99s = new ArrayList<>();
        long[] bytes = new long[n];
        for (int j = 0; j < n; j++) {
            medians.add(new ArrayList<>());
            p99s.add(new ArrayList<>());
        }
        for (int b = 0; b < blocks; b++) {
            for (int k = 0; k < n; k++) {
                int j = b % 2 == 0 ? k : n - 1 - k;
                long[] cpu = new long[BLOCK];
                long allocated = threads.getThreadAllocatedBytes(thread);
                for (int i = 0; i < BLOCK; i++) {
                    long start = threads.getCurrentThreadCpuTime();
                    cycles.get(j).run();
                    cpu[i] = threads.getCurrentThreadCpuTime() - start;
                }
                bytes[j] += threads.getThreadAllocatedBytes(thread) - allocated;
                Arrays.sort(cpu);
                medians.get(j).add(cpu[BLOCK / 2]);
                p99s.get(j).add(cpu[BLOCK * 99 / 100]);
            }
        }
        System.out.printf("%s, %d blocks of %d cycles per jar, load average %.2f at the end%n", sample, blocks, BLOCK,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        double first = median(medians.get(0));
        for (int j = 0; j < n; j++) {
            double m = median(medians.get(j));
            System.out.printf("  %-40s CPU median of block medians %7.1f µs (%.3f× the first), median block p99 %7.1f µs, %,d bytes/cycle%n",
                    jars[j], m / 1e3, m / first, median(p99s.get(j)) / 1e3, bytes[j] / ((long) blocks * BLOCK));
        }
    }

    private static double median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    /** One jar's engine, reached by reflection: its classes are not this class loader's. */
    private record Engine(Method run, Object bundle, Object observation) {
        static Engine load(Path jar, String sample) throws Exception {
            ClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
            Thread.currentThread().setContextClassLoader(loader); // Drools finds its services through it
            Class<?> samples = Class.forName(ShippedSamples.class.getName(), true, loader);
            Class<?> bundleClass = Class.forName("dev.runbook.engine.compile.CompiledBundle", true, loader);
            Class<?> observationClass = Class.forName("dev.runbook.engine.decide.Observation", true, loader);
            Method compile = samples.getDeclaredMethod("compile", String.class);
            Method observe = samples.getDeclaredMethod("observation", bundleClass, String.class);
            compile.setAccessible(true);
            observe.setAccessible(true);
            Object bundle = compile.invoke(null, sample);
            Object observation = observe.invoke(null, bundle, sample);
            Method run = Class.forName("dev.runbook.engine.decide.DecisionCycle", true, loader)
                    .getMethod("run", bundleClass, observationClass);
            return new Engine(run, bundle, observation);
        }

        /** The fired rules and the planned actions, as text. */
        String decide() throws Exception {
            Object decision = run.invoke(null, bundle, observation);
            return decision.getClass().getMethod("firedRules").invoke(decision) + " "
                    + decision.getClass().getMethod("actions").invoke(decision);
        }

        void cycle() {
            try {
                run.invoke(null, bundle, observation);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
