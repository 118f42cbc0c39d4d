package dev.runbook.benchmarks;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.isolation.IsolatedBundle;
import dev.runbook.operator.isolation.WorkerLauncher;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * One warm decision of a shipped bundle, in the operator's process ({@link #inProcess}: the engine's
 * cycle and the plan check) against in a sandboxed worker process ({@link #isolated}: the facts encoded
 * and sent, the worker's cycle, the decision sent back and decoded, and the plan checked again in this
 * process), measured in one JVM, one after the other, so that their ratio is taken under the same load.
 * The worker is the one the policy's default isolation starts (bubblewrap's sandbox): run on a Linux
 * machine with bubblewrap.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class IsolatedCycleBenchmark {
    @Param({"postgres-cluster/primary-failed"})
    public String sample;

    private CompiledBundle inProcess;
    private IsolatedBundle isolated;
    private Observation observation;

    @Setup
    public void setUp() {
        inProcess = ShippedSamples.compile(sample);
        observation = ShippedSamples.observation(inProcess, sample);
        var source = BundleLoader.load(ShippedSamples.bundleDirectory(sample));
        isolated = IsolatedBundle.load(source, source.files(), Policy.DEFAULT,
                WorkerLauncher.of(Policy.DEFAULT.isolation(), 2), false);
        Decision here = inProcess.decide(observation, Policy.DEFAULT);
        Decision there = isolated.decide(observation, Policy.DEFAULT);
        if (here.firings().isEmpty() || here.actions().size() != there.actions().size()) {
            throw new IllegalStateException(sample + ": the worker's plan differs from this process's, or no rule fired");
        }
    }

    @TearDown
    public void stopTheWorker() {
        isolated.close();
    }

    @Benchmark
    public Decision inProcess() {
        return inProcess.decide(observation, Policy.DEFAULT);
    }

    @Benchmark
    public Decision isolated() {
        return isolated.decide(observation, Policy.DEFAULT);
    }
}
