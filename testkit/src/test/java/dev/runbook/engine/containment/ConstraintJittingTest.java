package dev.runbook.engine.containment;

import dev.runbook.engine.TestBundles;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.testkit.scenario.CycleTester;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A condition runs only on the thread of the cycle that evaluates it, under that cycle's budget.
 * Drools' constraint jitter would, after some evaluations of a constraint, evaluate it once more in
 * full (every branch, also those no cycle takes) on a thread of its own, outside any budget.
 */
class ConstraintJittingTest {
    private static final Path STORE = TestBundles.directory("contained/loop-in-consequence").resolveSibling("store.yaml");

    @Test
    void noThreadButTheCyclesEvaluatesABundlesCondition() {
        CompiledBundle bundle = TestBundles.compiled("contained/loop-in-a-jitted-branch");
        for (int cycle = 0; cycle < 100; cycle++) {
            CycleTester.of(bundle).given(STORE).fire();
        }
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(threadsRunning("spinning")).isEmpty());
    }

    private static java.util.List<String> threadsRunning(String method) {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> Arrays.stream(e.getValue()).anyMatch(f -> f.getMethodName().equals(method)))
                .map(Map.Entry::getKey).map(Thread::getName).toList();
    }
}
