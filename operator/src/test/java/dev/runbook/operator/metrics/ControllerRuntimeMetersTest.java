package dev.runbook.operator.metrics;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.rules.action.Actions;
import dev.runbook.operator.error.Failure;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static dev.runbook.operator.metrics.OperatorMetricsTest.APP;
import static dev.runbook.operator.metrics.OperatorMetricsTest.CONFLICT;
import static dev.runbook.operator.metrics.OperatorMetricsTest.PHASE;
import static dev.runbook.operator.metrics.OperatorMetricsTest.report;
import static org.assertj.core.api.Assertions.assertThat;

/** The reconcile meters under controller-runtime's names, as a Prometheus scrape shows them. */
class ControllerRuntimeMetersTest {
    private final OperatorMetrics metrics = new OperatorMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));

    @AfterEach
    void close() {
        metrics.close();
    }

    @Test
    void aCycleIsASuccessfulReconcileTimedInControllerRuntimesBuckets() {
        metrics.cycleRecorded(APP, report(BundleSpec.Mode.ENFORCE, false, OperatorMetricsTest.decision(List.of()), List.of(), null, null));

        assertThat(metrics.scrape().lines()).contains(
                "controller_runtime_reconcile_total{controller=\"web-app\",result=\"success\"} 1.0",
                "controller_runtime_reconcile_errors_total{controller=\"web-app\"} 0.0",
                "controller_runtime_reconcile_time_seconds_count{controller=\"web-app\"} 1",
                "controller_runtime_reconcile_time_seconds_sum{controller=\"web-app\"} 0.25",
                "controller_runtime_reconcile_time_seconds_bucket{controller=\"web-app\",le=\"0.25\"} 1",
                "controller_runtime_reconcile_time_seconds_bucket{controller=\"web-app\",le=\"0.1\"} 0");
    }

    @Test
    void aCycleWhosePlanAsksForARequeueIsARequeueAtOnceOrAfterADelay() {
        PlannedAction now = new PlannedAction(Actions.requeue(APP, "0s"), List.of("Retry"));
        PlannedAction soon = new PlannedAction(Actions.requeue(APP, "30s"), List.of("Poll"));
        PlannedAction later = new PlannedAction(Actions.requeue(APP, "5m"), List.of("Poll"));
        metrics.cycleRecorded(APP, report(BundleSpec.Mode.ENFORCE, false, decision(List.of(PHASE, soon, later)), List.of(), null, null));
        metrics.cycleRecorded(APP, report(BundleSpec.Mode.OBSERVE, false, decision(List.of(soon)), List.of(), null, null));
        metrics.cycleRecorded(APP, report(BundleSpec.Mode.ENFORCE, false, decision(List.of(later, now)), List.of(), null, null));
        metrics.cycleRecorded(APP, report(BundleSpec.Mode.ENFORCE, false, decision(List.of(PHASE)), List.of(), null, null));

        assertThat(metrics.scrape().lines()).contains(
                "controller_runtime_reconcile_total{controller=\"web-app\",result=\"requeue_after\"} 2.0",
                "controller_runtime_reconcile_total{controller=\"web-app\",result=\"requeue\"} 1.0",
                "controller_runtime_reconcile_total{controller=\"web-app\",result=\"success\"} 1.0",
                "controller_runtime_reconcile_errors_total{controller=\"web-app\"} 0.0");
    }

    @Test
    void aFailedCycleIsAnErrorEvenWhenItsPlanAskedForARequeue() {
        Failure failed = new Failure(Failure.Kind.TEMPORARY, "ActionFailed", "apply ...: 500", List.of("Ready"));
        PlannedAction soon = new PlannedAction(Actions.requeue(APP, "30s"), List.of("Poll"));
        metrics.cycleRecorded(APP, report(BundleSpec.Mode.ENFORCE, false, decision(List.of(soon)), List.of(), null, failed));

        assertThat(metrics.scrape().lines())
                .contains("controller_runtime_reconcile_total{controller=\"web-app\",result=\"error\"} 1.0")
                .noneMatch(line -> line.contains("result=\"requeue"));
    }

    /** A valid decision with these actions. */
    private static Decision decision(List<PlannedAction> actions) {
        return new Decision("web-app", "abc", Instant.EPOCH, List.of(), actions, List.of());
    }

    @Test
    void aFailedCycleIsAnErrorAndARefusedPlanIsNot() {
        Failure failed = new Failure(Failure.Kind.TEMPORARY, "ActionFailed", "apply ...: 500", List.of("Ready"));
        Failure refused = new Failure(Failure.Kind.PERMANENT, "PlanRefused", "refused", List.of("A", "B"));
        metrics.cycleRecorded(APP, report(BundleSpec.Mode.ENFORCE, false, OperatorMetricsTest.decision(List.of()), List.of(), null, failed));
        metrics.cycleRecorded(APP, report(BundleSpec.Mode.ENFORCE, false, OperatorMetricsTest.decision(List.of(CONFLICT)), List.of(), null, refused));

        assertThat(metrics.scrape().lines()).contains(
                "controller_runtime_reconcile_total{controller=\"web-app\",result=\"error\"} 1.0",
                "controller_runtime_reconcile_total{controller=\"web-app\",result=\"success\"} 1.0",
                "controller_runtime_reconcile_errors_total{controller=\"web-app\"} 1.0",
                "controller_runtime_reconcile_time_seconds_count{controller=\"web-app\"} 2");
    }
}
