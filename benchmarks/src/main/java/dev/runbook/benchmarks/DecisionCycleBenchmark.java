package dev.runbook.benchmarks;

import dev.runbook.engine.bundle.ParameterValues;
import dev.runbook.engine.check.PlanChecker;
import dev.runbook.engine.check.PlanProblem;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.rules.fact.Clock;
import dev.runbook.rules.fact.Params;
import dev.runbook.rules.fact.Resource;
import org.kie.api.runtime.KieSession;
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

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One decision cycle ({@link DecisionCycle#run}) of a generated bundle over a store's objects: 15
 * objects (3 members) or 100 objects (30 members). {@link #sessionOnly} does the same inserts and
 * firing on a bare session of the same KieBase, without the engine's trace, templates and plan
 * check, to show what the engine adds around Drools; {@link #planCheck} is the plan check alone on
 * the cycle's planned actions (16 for 15 objects, 68 for 100 objects).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class DecisionCycleBenchmark {
    @Param({"30"})
    public int rules;

    @Param({"15", "100"})
    public int objects;

    private CompiledBundle bundle;
    private Observation observation;
    private Params params;
    private List<Resource> sortedSecondaries;
    private List<PlannedAction> planned;

    @Setup
    public void setUp() {
        bundle = BundleCompiler.compile(GeneratedBundle.source(rules));
        observation = ClusterState.observation(objects);
        params = ParameterValues.resolve(bundle.spec(), Map.of());
        sortedSecondaries = observation.secondaries().stream().sorted(Comparator.comparing(Resource::getRef)).toList();
        Decision decision = DecisionCycle.run(bundle, observation);
        if (!decision.isValid() || decision.firings().isEmpty()) {
            throw new IllegalStateException("the benchmark bundle should fire and plan validly: " + decision.problems());
        }
        planned = decision.actions();
    }

    @Benchmark
    public Decision cycle() {
        return DecisionCycle.run(bundle, observation);
    }

    @Benchmark
    public int sessionOnly() {
        KieSession session = bundle.kieBase().newKieSession();
        try {
            session.insert(new Clock(observation.now()));
            session.insert(params);
            session.insert(observation.primary());
            for (Resource r : sortedSecondaries) session.insert(r);
            return session.fireAllRules(bundle.spec().limits().maxFirings() + 1);
        } finally {
            session.dispose();
        }
    }

    @Benchmark
    public List<PlanProblem> planCheck() {
        return PlanChecker.check(planned, bundle.spec(), observation.primary());
    }
}
