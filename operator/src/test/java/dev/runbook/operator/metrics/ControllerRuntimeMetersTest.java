package dev.runbook.operator.metrics;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.operator.error.Failure;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.runbook.operator.metrics.OperatorMetricsTest.APP;
import static dev.runbook.operator.metrics.OperatorMetricsTest.CONFLICT;
import static dev.runbook.operator.metrics.OperatorMetricsTest.decision;
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
        metrics.cycleRecorded(APP, report(BundleSpec.Mode.ENFORCE, false, decision(List.of()), List.of(), null, null));

        assertThat(metrics.scrape().lines()).contains(
                "controller_runtime_reconcile_total{controller=\"web-app\",result=\"success\"} 1.0",
                "controller_runtime_reconcile_errors_total{controller=\"web-app\"} 0.0",
                "controller_runtime_reconcile_time_seconds_count{controller=\"web-app\"} 1",
                "controller_runtime_reconcile_time_seconds_sum{controller=\"web-app\"} 0.25",
                "controller_runtime_reconcile_time_seconds_bucket{controller=\"web-app\",le=\"0.25\"} 1",
                "controller_runtime_reconcile_time_seconds_bucket{controller=\"web-app\",le=\"0.1\"} 0");
    }

    @Test
    void aFailedCycleIsAnErrorAndARefusedPlanIsNot() {
        Failure failed = new Failure(Failure.Kind.TEMPORARY, "ActionFailed", "apply ...: 500", List.of("Ready"));
        Failure refused = new Failure(Failure.Kind.PERMANENT, "PlanRefused", "refused", List.of("A", "B"));
        metrics.cycleRecorded(APP, report(BundleSpec.Mode.ENFORCE, false, decision(List.of()), List.of(), null, failed));
        metrics.cycleRecorded(APP, report(BundleSpec.Mode.ENFORCE, false, decision(List.of(CONFLICT)), List.of(), null, refused));

        assertThat(metrics.scrape().lines()).contains(
                "controller_runtime_reconcile_total{controller=\"web-app\",result=\"error\"} 1.0",
                "controller_runtime_reconcile_total{controller=\"web-app\",result=\"success\"} 1.0",
                "controller_runtime_reconcile_errors_total{controller=\"web-app\"} 1.0",
                "controller_runtime_reconcile_time_seconds_count{controller=\"web-app\"} 2");
    }
}
