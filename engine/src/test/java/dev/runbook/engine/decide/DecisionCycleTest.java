package dev.runbook.engine.decide;

import dev.runbook.engine.TestBundles;
import dev.runbook.engine.check.PlanProblem;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.state.ObservationBuilder;
import dev.runbook.engine.state.StateFiles;
import dev.runbook.rules.action.Apply;
import dev.runbook.rules.action.SetStatus;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DecisionCycleTest {
    private static final Instant NOW = Instant.parse("2026-11-30T09:00:00Z");
    private static final String PROMOTE = "Promote the most advanced ready replica when the primary has failed";

    private static Observation observe(String sample, Instant now, Map<String, ?> params) {
        CompiledBundle bundle = TestBundles.compiled("example");
        var objects = StateFiles.read(List.of(TestBundles.directory("example").resolve("samples/" + sample)));
        return ObservationBuilder.build(bundle.spec(), objects, null, now, params);
    }

    private static Decision decide(Instant now, Map<String, ?> params) {
        return DecisionCycle.run(TestBundles.compiled("example"), observe("primary-failed.yaml", now, params));
    }

    private static Object statusValue(Decision decision, String path) {
        return decision.actions().stream().map(PlannedAction::action)
                .filter(a -> a instanceof SetStatus s && s.getPath().equals(path))
                .map(a -> ((SetStatus) a).getValue()).findFirst().orElse(null);
    }

    @Test
    void promotesTheMostAdvancedReadyReplicaOnceTheDelayHasPassed() {
        Decision decision = decide(NOW, Map.of());

        assertThat(decision.isValid()).isTrue();
        assertThat(statusValue(decision, "targetPrimary")).isEqualTo("main-2");
        assertThat(decision.actions()).filteredOn(p -> p.action().getType().equals("label"))
                .singleElement().satisfies(p -> {
                    assertThat(p.action().getTarget().getName()).isEqualTo("main-2");
                    assertThat(p.rules()).containsExactly(PROMOTE);
                });
    }

    @Test
    @SuppressWarnings("unchecked")
    void aRenderedObjectIsLabelledOnceAndTheSameActionIsPlannedAgainOverAnUnchangedState() {
        CompiledBundle bundle = TestBundles.compiled("example");
        Observation observation = observe("primary-failed.yaml", NOW, Map.of());

        Apply first = renderedApply(DecisionCycle.run(bundle, observation));
        Apply again = renderedApply(DecisionCycle.run(bundle, observe("primary-failed.yaml", NOW, Map.of())));

        assertThat(again).isSameAs(first);
        Map<String, Object> metadata = (Map<String, Object>) first.getObject().get("metadata");
        assertThat((Map<String, Object>) metadata.get("labels"))
                .containsEntry(RecommendedLabels.MANAGED_BY, RecommendedLabels.OPERATOR)
                .containsEntry(RecommendedLabels.PART_OF, bundle.name());
    }

    private static Apply renderedApply(Decision decision) {
        return decision.actions().stream().map(PlannedAction::action)
                .filter(a -> a instanceof Apply apply && apply.getTemplate() != null)
                .map(Apply.class::cast).findFirst().orElseThrow();
    }

    @Test
    void theTraceShowsTheMatchedFactsAndWithdrawsWhatStoppedHolding() {
        Decision decision = decide(NOW, Map.of());

        List<Firing> promotions = decision.firings().stream().filter(f -> f.rule().equals(PROMOTE)).toList();
        // main-1 was the best replica until main-2 became a member: its promotion was withdrawn.
        assertThat(promotions).hasSize(2);
        assertThat(promotions.get(0).matched()).anyMatch(m -> m.contains("main-1"));
        assertThat(promotions.get(0).withdrawn()).hasSize(3);
        assertThat(promotions.get(1).matched()).anyMatch(m -> m.contains("main-2"));
        assertThat(promotions.get(1).withdrawn()).isEmpty();
        assertThat(promotions.get(1).matched()).contains("Store demo/main", "Clock 2026-11-30T09:00:00Z");
    }

    @Test
    void waitsWhileInsideTheFailoverDelay() {
        // The primary turned not ready at 08:59:00; with a 5m delay, 09:00 is too early.
        Decision decision = decide(NOW, Map.of("failoverDelay", "5m"));

        assertThat(decision.firedRules()).doesNotContain(PROMOTE);
        assertThat(statusValue(decision, "targetPrimary")).isNull();
        assertThat(decide(NOW.plus(Duration.ofMinutes(4)), Map.of("failoverDelay", "5m")).firedRules()).contains(PROMOTE);
    }

    @Test
    void rendersTemplatesWithThePrimaryAndParametersIntoTheirNamespace() {
        Decision decision = decide(NOW, Map.of("configLevel", "debug"));

        Apply apply = decision.actions().stream().map(PlannedAction::action).filter(Apply.class::isInstance)
                .map(Apply.class::cast).findFirst().orElseThrow();
        assertThat(apply.getTemplate()).isEqualTo("config.yaml");
        assertThat(apply.getTarget().toString()).isEqualTo("ConfigMap demo/main-config");
        assertThat(apply.getObject()).extracting("data").isEqualTo(Map.of("image", "store:1.4", "log-level", "debug"));
    }

    @Test
    void requeuesAtTheSoonestRequestedTime() {
        assertThat(decide(NOW, Map.of()).requeueAfter()).contains(Duration.ofSeconds(10));
    }

    @Test
    void theSameObservationGivesTheSamePlan() {
        Decision first = decide(NOW, Map.of());
        Decision second = decide(NOW, Map.of());
        assertThat(forms(second)).isEqualTo(forms(first));
        assertThat(second.firedRules()).isEqualTo(first.firedRules());
    }

    @Test
    void manyCyclesAtOnceOnOneCompiledBundleAgreeWithASequentialOne() throws Exception {
        Decision expected = decide(NOW, Map.of());
        Observation observation = observe("primary-failed.yaml", NOW, Map.of());
        CompiledBundle bundle = TestBundles.compiled("example");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Callable<Decision>> cycles = java.util.stream.IntStream.range(0, 200)
                    .mapToObj(i -> (Callable<Decision>) () -> DecisionCycle.run(bundle, observation)).toList();
            for (Future<Decision> result : pool.invokeAll(cycles)) {
                assertThat(forms(result.get())).isEqualTo(forms(expected));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aRunawayRuleIsStoppedAndNamed() {
        CompiledBundle looping = TestBundles.compiled("looping");
        assertThatThrownBy(() -> DecisionCycle.run(looping, new Observation(store(), List.of(), NOW)))
                .isInstanceOf(FiringLimitExceededException.class)
                .hasMessageContaining("more than 100 times")
                .hasMessageContaining("Count forever")
                // Counted from the trace once the limit is passed, most first.
                .satisfies(e -> assertThat(((FiringLimitExceededException) e).topRules())
                        .containsExactlyInAnyOrderEntriesOf(java.util.Map.of("Count forever", 101, "Start counting", 1)));
    }

    @Test
    void conflictingActionsRefuseThePlanAndNameBothRules() {
        Decision decision = DecisionCycle.run(TestBundles.compiled("conflicting"), new Observation(store(), List.of(), NOW));

        assertThat(decision.isValid()).isFalse();
        assertThat(decision.applicableActions()).isEmpty();
        // The two equal label actions merge into one; the two phases conflict.
        assertThat(decision.actions()).filteredOn(p -> p.action().getType().equals("label"))
                .singleElement().satisfies(p -> assertThat(p.rules()).hasSize(2));
        assertThat(decision.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.kind()).isEqualTo(PlanProblem.Kind.CONFLICT);
            assertThat(problem.message()).startsWith("conflict on setStatus Store demo/main phase");
            assertThat(problem.rules()).containsExactlyInAnyOrder("Healthy when asked nicely", "Degraded when in doubt");
        });
    }

    @Test
    void aMissingTemplateRefusesThePlanNamingTheRule() {
        Decision decision = DecisionCycle.run(TestBundles.compiled("missing-template"), new Observation(store(), List.of(), NOW));

        assertThat(decision.isValid()).isFalse();
        assertThat(decision.problems()).singleElement().satisfies(problem -> {
            assertThat(problem.kind()).isEqualTo(PlanProblem.Kind.TEMPLATE);
            assertThat(problem.message()).startsWith("templates/missing.yaml: no such template");
            assertThat(problem.rules()).containsExactly("Apply a template the bundle does not have");
        });
    }

    @Test
    void anUnknownParameterOverrideIsRefused() {
        assertThatThrownBy(() -> decide(NOW, Map.of("failoverDealy", "1m")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown parameter 'failoverDealy'");
    }

    private static List<Map<String, Object>> forms(Decision decision) {
        return decision.actions().stream().map(PlannedAction::form).toList();
    }

    private static Primary store() {
        return new Primary(Map.of("apiVersion", "example.runbook.dev/v1", "kind", "Store",
                "metadata", Map.of("name", "main", "namespace", "demo")));
    }
}
