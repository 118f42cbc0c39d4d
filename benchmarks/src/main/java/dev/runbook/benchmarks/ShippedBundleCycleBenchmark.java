package dev.runbook.benchmarks;

import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.decide.Observation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * One warm decision cycle ({@link DecisionCycle#run}) of a shipped bundle over one of its own samples:
 * the real rules, templates and trace, the state an operations engineer would {@code runbook plan}.
 * {@link ShippedBundleBenchmarks} runs it over every sample of every bundle in {@code runbooks/}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ShippedBundleCycleBenchmark {
    @Param({"postgres-cluster/primary-failed"})
    public String sample;

    private CompiledBundle bundle;
    private Observation observation;

    @Setup
    public void setUp() {
        bundle = ShippedSamples.compile(sample);
        observation = ShippedSamples.observation(bundle, sample);
        Decision decision = DecisionCycle.run(bundle, observation);
        if (decision.firings().isEmpty()) {
            throw new IllegalStateException(sample + ": no rule fired; not a useful benchmark input");
        }
    }

    @Benchmark
    public Decision cycle() {
        return DecisionCycle.run(bundle, observation);
    }
}
