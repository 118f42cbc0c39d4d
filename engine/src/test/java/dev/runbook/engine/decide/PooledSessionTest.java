package dev.runbook.engine.decide;

import dev.runbook.engine.TestBundles;
import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.state.ObservationBuilder;
import dev.runbook.engine.state.StateFiles;
import dev.runbook.rules.fact.Primary;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Cycles borrow sessions from the compiled bundle's pool: nothing of one cycle (facts, derived facts,
 * pending matches, the trace listener) may reach the next.
 */
class PooledSessionTest {
    private static final Instant NOW = Instant.parse("2026-11-30T09:00:00Z");

    private static Observation observe(CompiledBundle bundle, Instant now, Map<String, ?> params) {
        var objects = StateFiles.read(List.of(TestBundles.directory("example").resolve("samples/primary-failed.yaml")));
        return ObservationBuilder.build(bundle.spec(), objects, null, now, params);
    }

    /** The plan and the trace, as text: what a reader of the plan sees. */
    private static String explained(Decision decision) {
        return decision.actions().stream().map(PlannedAction::form).toList() + " | "
                + decision.firings().stream().map(f -> f.rule() + f.matched() + f.derived() + f.withdrawn()).toList();
    }

    @Test
    void cyclesOnDifferentStatesInterleavedOnOnePoolAgreeWithFreshBundles() throws Exception {
        CompiledBundle shared = TestBundles.compiled("example");
        // Promotes at NOW; waits at NOW with a 5m failover delay: different rules, facts and actions.
        Observation promote = observe(shared, NOW, Map.of());
        Observation wait = observe(shared, NOW, Map.of("failoverDelay", "5m"));
        String expectedPromote = explained(DecisionCycle.run(fresh(), promote));
        String expectedWait = explained(DecisionCycle.run(fresh(), wait));
        assertThat(expectedPromote).isNotEqualTo(expectedWait);

        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Callable<String[]>> cycles = IntStream.range(0, 200).mapToObj(i -> (Callable<String[]>) () -> {
                Observation observation = i % 3 == 0 ? wait : promote;
                return new String[] {explained(DecisionCycle.run(shared, observation)),
                        observation == wait ? expectedWait : expectedPromote};
            }).toList();
            for (Future<String[]> result : threads.invokeAll(cycles)) {
                assertThat(result.get()[0]).isEqualTo(result.get()[1]);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aCycleStoppedByTheFiringLimitLeavesNothingBehind() {
        CompiledBundle looping = TestBundles.compiled("looping");
        Observation observation = new Observation(new Primary(Map.of("apiVersion", "example.runbook.dev/v1",
                "kind", "Store", "metadata", Map.of("name", "main", "namespace", "demo"))), List.of(), NOW);
        Throwable first = catchThrowable(() -> DecisionCycle.run(looping, observation));
        Throwable second = catchThrowable(() -> DecisionCycle.run(looping, observation));

        assertThat(first).isInstanceOf(FiringLimitExceededException.class);
        // The same counts: the second cycle started from an empty session, not from the first one's ticks.
        assertThat(second).isInstanceOf(FiringLimitExceededException.class).hasMessage(first.getMessage());
    }

    @Test
    void theSameBundleDecidesTheSameAfterManyCycles() {
        CompiledBundle shared = TestBundles.compiled("example");
        Observation later = observe(shared, NOW.plus(Duration.ofMinutes(4)), Map.of("failoverDelay", "5m"));
        String expected = explained(DecisionCycle.run(fresh(), later));
        for (int i = 0; i < 50; i++) DecisionCycle.run(shared, observe(shared, NOW, Map.of("failoverDelay", "5m")));
        assertThat(explained(DecisionCycle.run(shared, later))).isEqualTo(expected);
    }

    private static CompiledBundle fresh() {
        return BundleCompiler.compile(BundleLoader.load(TestBundles.directory("example")));
    }
}
