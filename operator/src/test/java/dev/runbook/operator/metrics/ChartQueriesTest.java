package dev.runbook.operator.metrics;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The names WhyIT holds against a scrape are the chart's: every query is read, none is mistaken. */
class ChartQueriesTest {
    private static final Path CHART = Path.of("../deploy/chart");

    @Test
    void theDashboardReadsTheOperatorsMetricsInEveryPanelAndVariable() throws Exception {
        assertThat(ChartQueries.dashboard(CHART.resolve("dashboards/runbook-operator.json"))).containsExactly(
                "runbook_actions_total", "runbook_bundle_active", "runbook_bundle_generation", "runbook_bundle_reloads_total",
                "runbook_cycles_seconds_bucket", "runbook_cycles_seconds_count", "runbook_leader", "runbook_plan_conflicts_total",
                "runbook_primary_phase", "runbook_rule_firings_total", "runbook_webhook_serving", "workqueue_depth",
                "workqueue_retries_total");
    }

    @Test
    void theAlertsReadTheOperatorsMetrics() throws Exception {
        assertThat(ChartQueries.rules(CHART.resolve("rules/runbook-operator.rules.yaml"))).containsExactly(
                "runbook_bundle_reloads_total", "runbook_cycles_seconds_count", "runbook_leader", "runbook_primary_phase",
                "runbook_webhook_serving");
    }

    @Test
    void aScrapeServesTheNamesOfItsSamples() throws Exception {
        assertThat(ChartQueries.served("# HELP x y\n# TYPE runbook_leader gauge\nrunbook_leader 1.0\n"
                + "runbook_cycles_seconds_bucket{bundle=\"a\",le=\"0.1\"} 0\n")).containsExactly("runbook_cycles_seconds_bucket", "runbook_leader");
        assertThat(Files.exists(CHART.resolve("Chart.yaml"))).isTrue();
    }
}
