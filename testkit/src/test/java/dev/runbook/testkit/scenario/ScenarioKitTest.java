package dev.runbook.testkit.scenario;

import dev.runbook.engine.TestBundles;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.problem.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class ScenarioKitTest {
    private static final Path BUNDLE = TestBundles.directory("example");
    private static final CompiledBundle COMPILED = TestBundles.compiled("example");

    private static Map<String, ScenarioResult> run(String file) {
        ScenarioRunner runner = new ScenarioRunner();
        return ScenarioSuite.read(BUNDLE, List.of(BUNDLE.resolve(file))).stream()
                .map(s -> runner.run(COMPILED, s))
                .collect(Collectors.toMap(r -> r.scenario().name(), r -> r));
    }

    @Test
    void theExampleBundlesScenariosPass() {
        List<Scenario> scenarios = ScenarioSuite.read(BUNDLE, List.of());
        assertThat(scenarios).hasSizeGreaterThanOrEqualTo(4);
        ScenarioRunner runner = new ScenarioRunner();
        for (Scenario scenario : scenarios) {
            ScenarioResult result = runner.run(COMPILED, scenario);
            assertThat(result.failures()).as(scenario.displayName()).isEmpty();
            assertThat(result.firedRules()).as(scenario.displayName()).isNotEmpty();
        }
    }

    @Test
    void emptyingTheRulesMakesEveryScenarioFail() {
        var source = dev.runbook.engine.bundle.BundleLoader.load(BUNDLE);
        Map<String, String> files = new java.util.TreeMap<>();
        source.files().forEach((path, text) -> {
            if (!path.startsWith("rules/")) files.put(path, text);
        });
        files.put("rules/empty.drl", "package example\n");
        CompiledBundle emptied = dev.runbook.engine.compile.BundleCompiler.compile(
                new dev.runbook.engine.bundle.BundleSource("emptied", files));
        ScenarioRunner runner = new ScenarioRunner();

        for (Scenario scenario : ScenarioSuite.read(BUNDLE, List.of())) {
            assertThat(runner.run(emptied, scenario).passed()).as(scenario.displayName()).isFalse();
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            expects a rule that does not fire              | failing-tests/wrong.yaml:6: expected rule 'Ready when every wanted member is ready' to fire, but it did not
            expects a rule not to fire that fires          | failing-tests/wrong.yaml:13: expected rule 'Promote the most advanced ready replica when the primary has failed' not to fire, but it fired
            expects an action that is not planned          | failing-tests/wrong.yaml:21: expected an action matching
            expects an absent action that is planned       | failing-tests/wrong.yaml:29: expected no action matching {action: label, value: primary}, but the plan has
            expects no actions at all                      | failing-tests/wrong.yaml:36: expected no actions, but the plan has
            expects a refused plan                         | failing-tests/wrong.yaml:43: expected the plan to be refused, but it was valid
            expects a status the plan does not write       | failing-tests/wrong.yaml:50: expected the status to contain
            expects a condition the plan does not set      | failing-tests/wrong.yaml:58: expected a condition matching {type: Ready, status: 'True'}
            is not idempotent                              | failing-tests/wrong.yaml:60: not idempotent: one more cycle over the resulting state still changes something
            expects a plan problem that does not occur     | failing-tests/wrong.yaml:73: expected a plan problem matching {kind: CONFLICT}
            """)
    void aScenarioThatShouldFailFailsWithAUsefulMessage(String name, String message) {
        ScenarioResult result = run("failing-tests/wrong.yaml").get(name);

        assertThat(result).as("scenario '%s'", name).isNotNull();
        assertThat(result.passed()).isFalse();
        assertThat(result.failures()).anySatisfy(failure -> assertThat(failure).startsWith(message));
    }

    @Test
    void aMissingActionShowsThePlanAndTheRulesThatFired() {
        String failure = run("failing-tests/wrong.yaml").get("expects an action that is not planned").failures().get(0);

        assertThat(failure)
                .contains("{action: setStatus, path: targetPrimary, value: main-1}")
                .contains("but the plan has")
                .contains("- {action: setStatus, target: {apiVersion: example.runbook.dev/v1, kind: Store, namespace: demo, name: main}, path: targetPrimary, value: main-2, by: [Promote the most advanced ready replica when the primary has failed]}")
                .contains("rules that fired: Each pod of the store is a member, Promote the most advanced ready replica");
    }

    @Test
    void aNonIdempotentScenarioNamesWhatStillChangesAndTheRule() {
        String failure = run("failing-tests/wrong.yaml").get("is not idempotent").failures().get(0);

        assertThat(failure).contains("UPDATED {action: label").contains("by [Promote the most advanced ready replica");
        assertThat(failure).contains("idempotence: {skip: REASON}");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            bad-tests/unknown-key.yaml     | bad-tests/unknown-key.yaml:6:3: expect.actoins: unknown key
            bad-tests/bad-yaml.yaml        | bad-tests/bad-yaml.yaml:4:1: not valid YAML
            bad-tests/missing-file.yaml    | bad-tests/missing-file.yaml:4:11: state[0].file: '../samples/nowhere.yaml' does not exist
            bad-tests/unknown-action.yaml  | bad-tests/unknown-action.yaml:6:1: expect.actions[0].action: unknown action type 'setStatuss'
            bad-tests/empty-expect.yaml    | bad-tests/empty-expect.yaml:4:9: expect: nothing expected
            bad-tests/no-time.yaml         | bad-tests/no-time.yaml:1:1: now: missing
            bad-tests/bad-change.yaml      | bad-tests/bad-change.yaml:7:22: steps[0].changes[0].podExplodes: unknown change
            bad-tests/numeric-annotation.yaml | bad-tests/numeric-annotation.yaml:6:66: metadata.annotations.replayed: 50331648 is a number, but the API server stores annotations as strings
            """)
    void aBadScenarioFileIsAnErrorAtItsPlace(String file, String message) {
        InvalidInputException error = catchThrowableOfType(InvalidInputException.class,
                () -> ScenarioSuite.read(BUNDLE, List.of(BUNDLE.resolve(file))));

        assertThat(error).as(file + " must be refused").isNotNull();
        assertThat(error.getProblems().get(0).toString()).startsWith(message);
    }

    @Test
    void subsetMatchingComparesMapsListsAndScalarText() {
        assertThat(SubsetMatch.matches(Map.of("a", 1), Map.of("a", "1", "b", 2))).isTrue();
        assertThat(SubsetMatch.matches(Map.of("a", Map.of("b", true)), Map.of("a", Map.of("b", "true", "c", 1)))).isTrue();
        assertThat(SubsetMatch.matches(List.of("x", "y"), List.of("y", "z", "x"))).isTrue();
        assertThat(SubsetMatch.matches(List.of("x", "x"), List.of("x"))).isFalse();
        assertThat(SubsetMatch.matches(Map.of("a", 1), Map.of("a", 2))).isFalse();
        assertThat(SubsetMatch.matches(Map.of("a", 1), Map.of())).isFalse();
        java.util.Map<String, Object> wantAbsent = new java.util.HashMap<>();
        wantAbsent.put("a", null);
        assertThat(SubsetMatch.matches(wantAbsent, Map.of("b", 1))).isTrue();
        assertThat(SubsetMatch.matches(wantAbsent, Map.of("a", 1))).isFalse();
    }
}
