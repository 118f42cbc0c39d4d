package dev.runbook.operator.record;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.check.PlanProblem;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.Firing;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.engine.apply.Outcome;
import dev.runbook.operator.act.AppliedAction;
import dev.runbook.operator.error.Failure;
import dev.runbook.rules.action.Actions;
import dev.runbook.rules.fact.Primary;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class CycleSummaryTest {
    static final Primary APP = new Primary(Map.of("apiVersion", "test.runbook.dev/v1", "kind", "WebApp",
            "metadata", Map.of("name", "shop", "namespace", "demo")));
    static final PlannedAction PHASE = new PlannedAction(Actions.setStatus(APP, "phase", "Serving"), List.of("Phase"));
    static final PlannedAction READY = new PlannedAction(Actions.setCondition(APP, "Ready", "True", "Ok", ""), List.of("Ready"));
    static final List<Firing> FIRINGS = List.of(firing("Phase"), firing("Ready"), firing("Phase"));

    static Firing firing(String rule) {
        return new Firing(rule, List.of(), List.of(), List.of(), List.of());
    }

    static Decision decision(List<PlanProblem> problems) {
        return new Decision("web-app", "abc", Instant.EPOCH, FIRINGS, List.of(PHASE, READY), problems);
    }

    static CycleReport report(BundleSpec.Mode mode, boolean paused, Decision decision, List<AppliedAction> applied,
                              PlannedAction failed, Failure failure) {
        return new CycleReport("c-1", "web-app", "abc", mode, paused, decision, applied, failed, failure, Duration.ZERO);
    }

    @Test
    void anAppliedCycleListsEachRuleOnceAndEachActionWithItsOutcome() {
        CycleReport report = report(BundleSpec.Mode.ENFORCE, false, decision(List.of()),
                List.of(new AppliedAction(PHASE, Outcome.UPDATED), new AppliedAction(READY, Outcome.NONE)), null, null);

        assertThat(CycleSummary.of(report)).isEqualTo(Map.of(
                "bundle", "web-app",
                "mode", "enforce",
                "fired", List.of("Phase", "Ready"),
                "actions", List.of(
                        Map.of("action", "setStatus WebApp demo/shop phase", "outcome", "UPDATED"),
                        Map.of("action", "setCondition WebApp demo/shop Ready", "outcome", "NONE"))));
        assertThat(RunbookCondition.of(report)).isEqualTo(new RunbookCondition("True", "Applied", "2 actions: 1 updated, 1 unchanged"));
    }

    @Test
    void aFailedActionIsMarkedAndTheOnesAfterItSkipped() {
        Failure failure = new Failure(Failure.Kind.PERMANENT, "ActionFailed", "setStatus ...: 404", List.of("Phase"));
        CycleReport report = report(BundleSpec.Mode.ENFORCE, false, decision(List.of()), List.of(), PHASE, failure);

        assertThat((List<Object>) CycleSummary.of(report).get("actions")).containsExactly(
                Map.of("action", "setStatus WebApp demo/shop phase", "outcome", "FAILED"),
                Map.of("action", "setCondition WebApp demo/shop Ready", "outcome", "SKIPPED"));
        RunbookCondition condition = RunbookCondition.of(report);
        assertThat(condition).isEqualTo(new RunbookCondition("False", "ActionFailed", "setStatus ...: 404 (rules: Phase)"));
        assertThat(condition.isWarning()).isTrue();
    }

    @Test
    void aRefusedPlanListsItsProblems() {
        PlanProblem conflict = new PlanProblem(PlanProblem.Kind.CONFLICT, "conflict on phase", List.of("A", "B"));
        CycleReport report = report(BundleSpec.Mode.ENFORCE, false, decision(List.of(conflict)), List.of(), null,
                new Failure(Failure.Kind.PERMANENT, "PlanRefused", "refused", List.of("A", "B")));

        Map<String, Object> summary = CycleSummary.of(report);
        assertThat((List<Object>) summary.get("actions"))
                .allSatisfy(a -> assertThat((Map<String, Object>) a).containsEntry("outcome", "REFUSED"));
        assertThat(summary.get("problems")).isEqualTo(List.of("conflict on phase (rules: A, B)"));
    }

    @Test
    void observeAndPauseRecordThePlanAsPlanned() {
        CycleReport observing = report(BundleSpec.Mode.OBSERVE, false, decision(List.of()), List.of(), null, null);
        CycleReport paused = report(BundleSpec.Mode.ENFORCE, true, decision(List.of()), List.of(), null, null);

        assertThat(CycleSummary.of(observing).get("mode")).isEqualTo("observe");
        assertThat((List<Object>) CycleSummary.of(observing).get("actions"))
                .allSatisfy(a -> assertThat((Map<String, Object>) a).containsEntry("outcome", "PLANNED"));
        assertThat(CycleSummary.of(paused).get("mode")).isEqualTo("paused");
        assertThat(RunbookCondition.of(observing).reason()).isEqualTo("Observing");
        assertThat(RunbookCondition.of(paused).reason()).isEqualTo("Paused");
        assertThat(RunbookCondition.of(observing).isWarning()).isFalse();
        assertThat(RunbookCondition.of(paused).isWarning()).isFalse();
    }

    @Test
    void longListsAreCut() {
        List<Firing> many = new ArrayList<>();
        for (int i = 0; i < 25; i++) many.add(firing("rule " + i));
        Decision decision = new Decision("web-app", "abc", Instant.EPOCH, many, List.of(), List.of());
        List<Object> fired = (List<Object>) CycleSummary.of(report(BundleSpec.Mode.ENFORCE, false, decision, List.of(), null, null)).get("fired");
        assertThat(fired).hasSize(CycleSummary.MAX_ENTRIES + 1).endsWith("... and 5 more");
    }

    @Test
    void aCycleThatStoppedBeforeDecidingHasNoPlan() {
        CycleReport report = report(BundleSpec.Mode.ENFORCE, false, null, List.of(), null,
                new Failure(Failure.Kind.PERMANENT, "RuleFailed", "rule 'X' failed: boom", List.of("X")));
        assertThat(CycleSummary.of(report)).isEqualTo(Map.of("bundle", "web-app", "mode", "enforce"));
        assertThat(RunbookCondition.of(report)).isEqualTo(new RunbookCondition("False", "RuleFailed", "rule 'X' failed: boom (rules: X)"));
    }
}
