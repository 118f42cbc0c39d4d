package dev.runbook.benchmarks;

import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.containment.RuleBudget;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.decide.Observation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * What measuring rule deadlines in the thread's CPU time costs against wall-clock time
 * ({@link RuleBudget}, {@code -Drunbook.budgetClock=wall}): each benchmark runs in a JVM of its own with
 * one clock. {@code loop*}: 100,000 budget checks (what a rule's loop of 100,000 iterations pays): the
 * score in µs divided by 100 is one check and loop iteration in nanoseconds; {@code cycle*}: one
 * decision cycle of postgres-cluster over samples/primary-failed.yaml. docs/performance-log.md, "Containment".
 * {@code java -jar benchmarks/target/benchmarks.jar BudgetClockBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class BudgetClockBenchmark {
    private static final String SAMPLE = "postgres-cluster/primary-failed";
    private static final int CHECKS = 100_000;
    private static final Duration GENEROUS = Duration.ofMinutes(5);
    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    private CompiledBundle bundle;
    private Observation observation;

    @Setup
    public void setUp() {
        bundle = ShippedSamples.compile(SAMPLE);
        observation = ShippedSamples.observation(bundle, SAMPLE);
        System.err.println("deadlines measured in " + RuleBudget.clock() + " time");
    }

    private static long checks() {
        return RuleBudget.within("benchmark", GENEROUS, 0, () -> {
            long sum = 0;
            for (int i = 0; i < CHECKS; i++) {
                RuleBudget.check();
                sum += i;
            }
            return sum;
        });
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-D" + RuleBudget.CLOCK_PROPERTY + "=cpu"})
    public long loopCpuClock() {
        return checks();
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-D" + RuleBudget.CLOCK_PROPERTY + "=wall"})
    public long loopWallClock() {
        return checks();
    }

    /** One read of the thread's CPU time: what a deadline check costs every 256 budget checks with the CPU clock. */
    @Benchmark
    @Fork(1)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public long readThreadCpuTime() {
        return THREADS.getCurrentThreadCpuTime();
    }

    /** One read of the wall clock: the same with {@code -Drunbook.budgetClock=wall}. */
    @Benchmark
    @Fork(1)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public long readNanoTime() {
        return System.nanoTime();
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-D" + RuleBudget.CLOCK_PROPERTY + "=cpu"})
    public Decision cycleCpuClock() {
        return DecisionCycle.run(bundle, observation);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-D" + RuleBudget.CLOCK_PROPERTY + "=wall"})
    public Decision cycleWallClock() {
        return DecisionCycle.run(bundle, observation);
    }
}
