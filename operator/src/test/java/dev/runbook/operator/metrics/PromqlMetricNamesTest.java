package dev.runbook.operator.metrics;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PromqlMetricNamesTest {
    @Test
    void takesTheSelectorsAndLeavesFunctionsLabelsRangesAndVariablesOut() {
        assertThat(PromqlMetricNames.of("histogram_quantile(0.95, sum by (bundle, le) "
                + "(rate(runbook_cycles_seconds_bucket{bundle=~\"$bundle\"}[$__rate_interval])))"))
                .containsExactly("runbook_cycles_seconds_bucket");
        assertThat(PromqlMetricNames.of("(sum(runbook_leader) or vector(0)) < 1")).containsExactly("runbook_leader");
        assertThat(PromqlMetricNames.of("max by (bundle, namespace, name, phase) (runbook_primary_phase{phase!~\"Healthy|Available\"}) == 1"))
                .containsExactly("runbook_primary_phase");
        assertThat(PromqlMetricNames.of("a_total / on (job) group_left(version) b_info offset 5m unless c"))
                .containsExactly("a_total", "b_info", "c");
        assertThat(PromqlMetricNames.of("label_values(runbook_bundle_active, bundle)")).containsExactly("runbook_bundle_active");
        assertThat(PromqlMetricNames.of("topk(15, sum by (rule) (rate(runbook_rule_firings_total{bundle=~\"$bundle\"}[5m]))) > 1e3"))
                .containsExactly("runbook_rule_firings_total");
    }
}
