package dev.runbook.testkit.scenario;

import dev.runbook.engine.TestBundles;
import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.CleanupDeadline;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.testkit.simulation.Finalizers;
import dev.runbook.testkit.simulation.Simulator;
import dev.runbook.engine.state.ObservationBuilder;
import dev.runbook.engine.state.ObservedObject;
import dev.runbook.rules.action.FinishCleanup;
import dev.runbook.rules.fact.ObjectRef;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** Cleanup rules on the simulated cluster: a deleted primary held by its finalizer until the rules release it. */
class CleanupScenarioTest {
    private static final Path BUNDLE = TestBundles.directory("cleaning");
    private static final CompiledBundle COMPILED = TestBundles.compiled("cleaning");
    private static final Instant NOW = Instant.parse("2026-11-30T09:00:00Z");
    private static final ObjectRef ARCHIVE = ObjectRef.of("example.runbook.dev/v1", "Archive", "demo", "logs");

    @Test
    void theCleaningBundlesScenariosPass() {
        ScenarioRunner runner = new ScenarioRunner();
        List<Scenario> scenarios = ScenarioSuite.read(BUNDLE, List.of());
        assertThat(scenarios).hasSize(2);
        for (Scenario scenario : scenarios) {
            assertThat(runner.run(COMPILED, scenario).failures()).as(scenario.name()).isEmpty();
        }
    }

    @Test
    void withoutTheFinishingRuleTheFinalizerHoldsUntilTheDeadline() {
        Map<String, String> files = new TreeMap<>(BundleLoader.load(BUNDLE).files());
        files.put("rules/cleanup.drl", files.get("rules/cleanup.drl")
                .replace("insertLogical(finishCleanup($archive));", "// forgot to finish"));
        CompiledBundle forgetful = BundleCompiler.compile(new BundleSource("forgetful", files));
        Scenario first = ScenarioSuite.read(BUNDLE, List.of()).get(0);

        ScenarioResult result = new ScenarioRunner().run(forgetful, first);

        assertThat(String.join("\n", result.failures()))
                .contains("expected an action matching")
                .contains("expected the primary to be gone after the plan was applied, but it is there (finalizers [runbook.dev/cleaning])");
    }

    @Test
    void aDeletedPrimaryStaysWithItsFinalizerAndItsDependentsGoWithIt() {
        Simulator simulator = new Simulator(NOW);
        simulator.create(Map.of("apiVersion", "example.runbook.dev/v1", "kind", "Archive",
                "metadata", Map.of("name", "logs", "namespace", "demo")));
        Finalizers.add(simulator, ARCHIVE, "runbook.dev/cleaning");
        String uid = (String) ((Map<?, ?>) simulator.get(ARCHIVE).orElseThrow().get("metadata")).get("uid");
        simulator.create(Map.of("apiVersion", "v1", "kind", "ConfigMap", "metadata", Map.of("name", "logs-config",
                "namespace", "demo", "ownerReferences", List.of(Map.of("apiVersion", "example.runbook.dev/v1",
                        "kind", "Archive", "name", "logs", "uid", uid)))));

        simulator.advance(Duration.ofSeconds(5));
        simulator.delete(ARCHIVE);
        simulator.settle();
        Map<?, ?> metadata = (Map<?, ?>) simulator.get(ARCHIVE).orElseThrow().get("metadata");
        assertThat(metadata.get("deletionTimestamp")).isEqualTo("2026-11-30T09:00:05Z");
        assertThat(simulator.get(Simulator.ref("ConfigMap", "demo", "logs-config"))).isPresent();

        simulator.apply(new FinishCleanup(ARCHIVE, "runbook.dev/cleaning"));
        simulator.settle();
        assertThat(simulator.get(ARCHIVE)).isEmpty();
        assertThat(simulator.get(Simulator.ref("ConfigMap", "demo", "logs-config"))).isEmpty();
    }

    @Test
    void pastTheDeadlineNoRuleRunsAndThePlanReleasesThePrimary() {
        Map<String, Object> deleted = Map.of("apiVersion", "example.runbook.dev/v1", "kind", "Archive",
                "metadata", Map.of("name", "logs", "namespace", "demo", "deletionTimestamp", "2026-11-30T08:50:00Z",
                        "finalizers", List.of("runbook.dev/cleaning")));
        Decision decision = DecisionCycle.run(COMPILED, ObservationBuilder.build(COMPILED.spec(),
                List.of(new ObservedObject(deleted, "(test)", 0)), null, NOW, Map.of()));

        assertThat(decision.firings()).isEmpty();
        assertThat(decision.isValid()).isTrue();
        assertThat(decision.actions()).extracting(a -> a.action().getType()).containsExactly("event", "finishCleanup");
        assertThat(decision.actions()).allSatisfy(a -> assertThat(a.rules()).containsExactly(CleanupDeadline.REASON));
    }
}
