package dev.runbook.benchmarks;

import dev.runbook.engine.bundle.BundleSpecParser;
import dev.runbook.engine.bundle.ParameterValues;
import dev.runbook.engine.decide.Observation;
import dev.runbook.rules.fact.Params;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The classic DRL compiler against the executable model on the same generated DRL: the compile
 * (DRL to a usable KieBase) and one bare cycle on each KieBase. Run all of it in one invocation so
 * that the ratios come from one run on one machine state.
 */
public class CompilePathBenchmark {
    public enum Path { classic, executableModel }

    static CompilePaths.Built build(Path path, Map<String, String> drl) {
        CompilePaths.Built built = path == Path.classic ? CompilePaths.classic(drl) : CompilePaths.executableModel(drl);
        if (!built.errors().isEmpty()) throw new IllegalStateException(path + " failed: " + built.errors());
        return built;
    }

    /** The DRL of a 100-rule bundle, compiled once per shot. */
    @State(Scope.Benchmark)
    public static class Sources {
        @Param({"classic", "executableModel"})
        public Path path;

        @Param({"100"})
        public int rules;

        Map<String, String> drl;

        @Setup
        public void setUp() {
            drl = GeneratedBundle.drl(rules);
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
    @Warmup(iterations = 5)
    @Measurement(iterations = 10)
    public Object compile(Sources sources) {
        try (CompilePaths.Built built = build(sources.path, sources.drl)) {
            return built.kieBase();
        }
    }

    /** A KieBase of the 100-rule DRL, compiled once, and a state of 10 or 100 objects. */
    @State(Scope.Benchmark)
    public static class Compiled {
        @Param({"classic", "executableModel"})
        public Path path;

        @Param({"100"})
        public int rules;

        @Param({"10", "100"})
        public int objects;

        CompilePaths.Built built;
        Observation observation;
        Params params;

        @Setup(Level.Trial)
        public void setUp() {
            built = build(path, GeneratedBundle.drl(rules));
            observation = ClusterState.observation(objects);
            params = ParameterValues.resolve(BundleSpecParser.parse(GeneratedBundle.source(rules).file("bundle.yaml")), Map.of());
            if (CompilePaths.cycle(built.kieBase(), observation, params) == 0) {
                throw new IllegalStateException("no rule fired");
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            built.close();
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
    @Warmup(iterations = 3, time = 2)
    @Measurement(iterations = 5, time = 2)
    public int cycle(Compiled compiled) {
        return CompilePaths.cycle(compiled.built.kieBase(), compiled.observation, compiled.params);
    }
}
