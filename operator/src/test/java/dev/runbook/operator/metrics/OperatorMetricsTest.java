package dev.runbook.operator.metrics;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.check.PlanProblem;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.Firing;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.engine.apply.Outcome;
import dev.runbook.operator.act.AppliedAction;
import dev.runbook.operator.error.Failure;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.rules.action.Actions;
import dev.runbook.rules.fact.Primary;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

public class OperatorMetricsTest {
    public static final Primary APP = new Primary(Map.of("apiVersion", "test.runbook.dev/v1", "kind", "WebApp",
            "metadata", Map.of("name", "shop", "namespace", "demo")));
    static final PlannedAction PHASE = new PlannedAction(Actions.setStatus(APP, "phase", "Serving"), List.of("Phase"));
    static final PlannedAction READY = new PlannedAction(Actions.setCondition(APP, "Ready", "True", "Ok", ""), List.of("Ready"));
    static final PlanProblem CONFLICT = new PlanProblem(PlanProblem.Kind.CONFLICT, "conflict on phase", List.of("A", "B"));
    static final PlanProblem TOO_MANY = new PlanProblem(PlanProblem.Kind.TOO_MANY_ACTIONS, "too many", List.of("A"));

    private final OperatorMetrics metrics = new OperatorMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));

    @AfterEach
    void close() {
        metrics.close();
    }

    static Firing firing(String rule) {
        return new Firing(rule, List.of(), List.of(), List.of(), List.of());
    }

    public static Decision decision(List<PlanProblem> problems) {
        return new Decision("web-app", "abc", Instant.EPOCH, List.of(firing("Phase"), firing("Ready"), firing("Phase")),
                List.of(PHASE, READY), problems);
    }

    public static CycleReport report(BundleSpec.Mode mode, boolean paused, Decision decision, List<AppliedAction> applied,
                              PlannedAction failed, Failure failure) {
        return new CycleReport("c-1", "web-app", "abc", mode, paused, decision, applied, failed, failure, Duration.ofMillis(250));
    }

    static CycleReport applied() {
        return report(BundleSpec.Mode.ENFORCE, false, decision(List.of()),
                List.of(new AppliedAction(PHASE, Outcome.UPDATED), new AppliedAction(READY, Outcome.NONE)), null, null);
    }

    @Test
    void eachFiringCountsForItsRule() {
        metrics.cycleRecorded(APP, applied());
        metrics.cycleRecorded(APP, applied());

        assertThat(lines()).contains(
                "runbook_rule_firings_total{bundle=\"web-app\",rule=\"Phase\"} 4.0",
                "runbook_rule_firings_total{bundle=\"web-app\",rule=\"Ready\"} 2.0");
    }

    @Test
    void anAppliedCycleIsTimedAndCountsEachActionWithItsOutcome() {
        metrics.cycleRecorded(APP, applied());

        assertThat(lines()).contains(
                "runbook_cycles_seconds_count{bundle=\"web-app\",kind=\"WebApp\",mode=\"enforce\",outcome=\"ok\"} 1",
                "runbook_cycles_seconds_sum{bundle=\"web-app\",kind=\"WebApp\",mode=\"enforce\",outcome=\"ok\"} 0.25",
                "runbook_actions_total{bundle=\"web-app\",outcome=\"updated\",type=\"setStatus\"} 1.0",
                "runbook_actions_total{bundle=\"web-app\",outcome=\"none\",type=\"setCondition\"} 1.0");
        assertThat(scrape()).doesNotContain("outcome=\"planned\"").doesNotContain("runbook_plan_conflicts_total{");
    }

    @Test
    void theCycleTimerHasBucketsForSlowCycles() {
        metrics.cycleRecorded(APP, applied());

        assertThat(lines()).contains(
                "runbook_cycles_seconds_bucket{bundle=\"web-app\",kind=\"WebApp\",mode=\"enforce\",outcome=\"ok\",le=\"0.1\"} 0",
                "runbook_cycles_seconds_bucket{bundle=\"web-app\",kind=\"WebApp\",mode=\"enforce\",outcome=\"ok\",le=\"0.25\"} 1");
    }

    @Test
    void aFailedActionCountsAsFailedAndSoDoesItsCycle() {
        Failure failure = new Failure(Failure.Kind.PERMANENT, "ActionFailed", "setCondition ...: 404", List.of("Ready"));
        metrics.cycleRecorded(APP, report(BundleSpec.Mode.ENFORCE, false, decision(List.of()),
                List.of(new AppliedAction(PHASE, Outcome.CREATED)), READY, failure));

        assertThat(lines()).contains(
                "runbook_cycles_seconds_count{bundle=\"web-app\",kind=\"WebApp\",mode=\"enforce\",outcome=\"failed\"} 1",
                "runbook_actions_total{bundle=\"web-app\",outcome=\"created\",type=\"setStatus\"} 1.0",
                "runbook_actions_total{bundle=\"web-app\",outcome=\"failed\",type=\"setCondition\"} 1.0");
    }

    @Test
    void aRefusedPlanCountsItsProblemsAndNoneOfItsActions() {
        Failure refused = new Failure(Failure.Kind.PERMANENT, "PlanRefused", "refused", List.of("A", "B"));
        metrics.cycleRecorded(APP, report(BundleSpec.Mode.ENFORCE, false, decision(List.of(CONFLICT, TOO_MANY)),
                List.of(), null, refused));

        assertThat(lines()).contains(
                "runbook_cycles_seconds_count{bundle=\"web-app\",kind=\"WebApp\",mode=\"enforce\",outcome=\"refused\"} 1",
                "runbook_plan_conflicts_total{bundle=\"web-app\"} 2.0",
                // the rules still fired: that is how the plan came to be refused
                "runbook_rule_firings_total{bundle=\"web-app\",rule=\"Phase\"} 2.0",
                "runbook_cycle_failures_total{bundle=\"web-app\",reason=\"PlanRefused\"} 1.0");
        assertThat(scrape()).doesNotContain("runbook_actions_total{");
    }

    @Test
    void aCycleWhoseWorkerWasStoppedCountsAsAFailureOfThatReason() {
        Failure stopped = new Failure(Failure.Kind.TEMPORARY, "WorkerStopped", "killed", List.of());
        metrics.cycleRecorded(APP, report(BundleSpec.Mode.ENFORCE, false, null, List.of(), null, stopped));
        metrics.cycleRecorded(APP, report(BundleSpec.Mode.ENFORCE, false, null, List.of(), null, stopped));
        metrics.cycleRecorded(APP, report(BundleSpec.Mode.ENFORCE, false, decision(List.of()), List.of(), null, null));

        assertThat(lines()).contains("runbook_cycle_failures_total{bundle=\"web-app\",reason=\"WorkerStopped\"} 2.0");
    }

    @Test
    void observeAndPauseCountThePlanAsPlanned() {
        metrics.cycleRecorded(APP, report(BundleSpec.Mode.OBSERVE, false, decision(List.of()), List.of(), null, null));
        metrics.cycleRecorded(APP, report(BundleSpec.Mode.ENFORCE, true, decision(List.of()), List.of(), null, null));

        assertThat(lines()).contains(
                "runbook_cycles_seconds_count{bundle=\"web-app\",kind=\"WebApp\",mode=\"observe\",outcome=\"ok\"} 1",
                "runbook_cycles_seconds_count{bundle=\"web-app\",kind=\"WebApp\",mode=\"paused\",outcome=\"ok\"} 1",
                "runbook_actions_total{bundle=\"web-app\",outcome=\"planned\",type=\"setStatus\"} 2.0",
                "runbook_actions_total{bundle=\"web-app\",outcome=\"planned\",type=\"setCondition\"} 2.0");
    }

    @Test
    void aCycleThatStoppedBeforeDecidingCountsOnlyAsAFailedCycle() {
        metrics.cycleRecorded(APP, report(BundleSpec.Mode.ENFORCE, false, null, List.of(), null,
                new Failure(Failure.Kind.PERMANENT, "RuleFailed", "rule 'X' failed: boom", List.of("X"))));

        assertThat(lines()).contains(
                "runbook_cycles_seconds_count{bundle=\"web-app\",kind=\"WebApp\",mode=\"enforce\",outcome=\"failed\"} 1");
        assertThat(scrape()).doesNotContain("runbook_rule_firings_total{").doesNotContain("runbook_actions_total{");
    }

    @Test
    void noSeriesButThePhaseNamesThePrimary() {
        metrics.cycleRecorded(APP, applied());

        assertThat(scrape()).contains("bundle=\"web-app\"");
        assertThat(scrape().lines().filter(line -> line.contains("shop") || line.contains("demo")))
                .containsExactly("runbook_primary_phase{bundle=\"web-app\",name=\"shop\",namespace=\"demo\",phase=\"Serving\"} 1.0");
    }

    @Test
    void thePhaseSeriesFollowsThePrimarysPhaseAndLeavesWithThePrimary() {
        metrics.cycleRecorded(APP, applied());
        PlannedAction degraded = new PlannedAction(Actions.setStatus(APP, "phase", "Degraded"), List.of("Phase"));
        metrics.cycleRecorded(APP, report(BundleSpec.Mode.ENFORCE, false, decision(List.of()),
                List.of(new AppliedAction(degraded, Outcome.UPDATED)), null, null));

        assertThat(scrape().lines().filter(line -> line.startsWith("runbook_primary_phase{")))
                .containsExactly("runbook_primary_phase{bundle=\"web-app\",name=\"shop\",namespace=\"demo\",phase=\"Degraded\"} 1.0");

        // Observe mode applies nothing: the phase is the one the primary's status holds.
        Primary observed = new Primary(Map.of("apiVersion", "test.runbook.dev/v1", "kind", "WebApp",
                "metadata", Map.of("name", "shop", "namespace", "demo"), "status", Map.of("phase", "Serving")));
        metrics.cycleRecorded(observed, report(BundleSpec.Mode.OBSERVE, false, decision(List.of()), List.of(), null, null));
        assertThat(scrape()).contains("phase=\"Serving\"} 1.0").doesNotContain("Degraded");

        metrics.controllerMetrics("web-app").cleanupDoneFor(new io.javaoperatorsdk.operator.processing.event.ResourceID("shop", "demo"), Map.of());
        assertThat(scrape()).doesNotContain("runbook_primary_phase{");
    }

    @Test
    void theReloadAndPlanProblemCountersAreThereAtZeroFromTheBundlesStartSoThatTheFirstRefusalIsAnIncrease() {
        metrics.bundleActivated("web-app", "abc", 1);

        assertThat(scrape()).contains("runbook_bundle_reloads_total{bundle=\"web-app\",result=\"refused\"} 0.0",
                "runbook_bundle_reloads_total{bundle=\"web-app\",result=\"accepted\"} 0.0",
                "runbook_plan_conflicts_total{bundle=\"web-app\"} 0.0");
    }

    @Test
    void theWebhookGaugeIsThereOnlyForAnOperatorThatServesTheWebhook() {
        assertThat(scrape()).doesNotContain("runbook_webhook_serving");
        metrics.webhookServing(true);
        assertThat(scrape()).contains("runbook_webhook_serving 1.0");
        metrics.webhookServing(false);
        assertThat(scrape()).contains("runbook_webhook_serving 0.0");
    }

    @Test
    void aReportItCannotReadIsDropped() {
        CycleReport withoutMode = new CycleReport("c-1", "web-app", "abc", null, false, decision(List.of()), List.of(),
                null, null, Duration.ZERO);

        assertThatCode(() -> metrics.cycleRecorded(APP, withoutMode)).doesNotThrowAnyException();
        assertThat(scrape()).doesNotContain("runbook_cycles_seconds_count{");
    }

    @Test
    void aVersionSwapReplacesTheActiveVersionsSeries() {
        metrics.bundleActivated("web-app", "abc", 1);
        assertThat(lines()).contains(
                "runbook_bundle_active{bundle=\"web-app\",version=\"abc\"} 1.0",
                "runbook_bundle_generation{bundle=\"web-app\"} 1.0");

        metrics.bundleActivated("web-app", "def", 2);

        assertThat(lines()).contains(
                "runbook_bundle_active{bundle=\"web-app\",version=\"def\"} 1.0",
                "runbook_bundle_generation{bundle=\"web-app\"} 2.0");
        assertThat(scrape()).doesNotContain("version=\"abc\"");
    }

    @Test
    void eachBundleHasItsOwnActiveVersionAndARemovedBundleLeavesTheScrape() {
        metrics.bundleActivated("web-app", "abc", 3);
        metrics.bundleActivated("postgres-cluster", "123", 1);

        metrics.bundleRemoved("web-app");

        assertThat(lines()).contains(
                "runbook_bundle_active{bundle=\"postgres-cluster\",version=\"123\"} 1.0",
                "runbook_bundle_generation{bundle=\"postgres-cluster\"} 1.0");
        // Its gauges leave; its counters stay, as counters do (docs/metrics.md), at 0 since its start.
        assertThat(scrape()).doesNotContain("runbook_bundle_active{bundle=\"web-app\"")
                .doesNotContain("runbook_bundle_generation{bundle=\"web-app\"");
    }

    @Test
    void reloadsAreCountedByResult() {
        metrics.reloadAccepted("web-app");
        metrics.reloadAccepted("web-app");
        metrics.reloadRefused("web-app");

        assertThat(lines()).contains(
                "runbook_bundle_reloads_total{bundle=\"web-app\",result=\"accepted\"} 2.0",
                "runbook_bundle_reloads_total{bundle=\"web-app\",result=\"refused\"} 1.0");
    }

    @Test
    void theLeaderGaugeFollowsLeadership() {
        assertThat(lines()).contains("runbook_leader 0.0");

        metrics.leading(true);
        assertThat(lines()).contains("runbook_leader 1.0");

        metrics.leading(false);
        assertThat(lines()).contains("runbook_leader 0.0");
    }

    @Test
    void theOperatorsRegistryHasTheJvmsMetersToo() {
        try (OperatorMetrics withJvm = OperatorMetrics.create()) {
            assertThat(withJvm.scrape()).contains("jvm_memory_used_bytes{", "jvm_threads_live_threads ",
                    "process_cpu_usage ", "runbook_leader 0.0");
        }
        assertThat(scrape()).doesNotContain("jvm_memory_used_bytes");
    }

    private String scrape() {
        return metrics.scrape();
    }

    private List<String> lines() {
        return scrape().lines().toList();
    }
}
