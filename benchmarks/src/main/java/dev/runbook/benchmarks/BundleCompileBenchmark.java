package dev.runbook.benchmarks;

import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
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
 * The engine's whole compile ({@link BundleCompiler#compile}: bundle.yaml, templates, DRL through the
 * classic compiler, KieBase) of a generated bundle, one compile per shot, in a JVM warmed by earlier
 * compiles of the same bundle.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 8)
@Measurement(iterations = 15)
public class BundleCompileBenchmark {
    @Param({"30", "300"})
    public int rules;

    private BundleSource source;

    @Setup
    public void setUp() {
        source = GeneratedBundle.source(rules);
    }

    @Benchmark
    public CompiledBundle compile() {
        return BundleCompiler.compile(source);
    }
}
