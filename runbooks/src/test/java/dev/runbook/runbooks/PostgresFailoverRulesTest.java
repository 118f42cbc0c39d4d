package dev.runbook.runbooks;

import dev.runbook.engine.scenario.CycleTester;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The failover rules through the fluent Java API, on the bundle's real .drl files. */
class PostgresFailoverRulesTest {
    private static final Path BUNDLE = Path.of("postgres-cluster");
    private static final CycleTester FAILED = CycleTester.of(BUNDLE).given(BUNDLE.resolve("samples/primary-failed.yaml"));
    private static final String START = "Start a failover when the primary has been not ready for longer than failoverDelay";

    @Test
    void promotesTheMostAdvancedReadyReplica() {
        FAILED.at("2026-11-30T09:00:00Z").fire()
                .assertValid()
                .assertFired(START)
                .assertAction(Map.of("action", "setStatus", "path", "targetPrimary", "value", "pg-2"))
                .assertNoAction(Map.of("action", "label"));
    }

    @Test
    void aLongerDelayParameterPostponesTheFailover() {
        // spec.failoverDelay (30s) wins over the parameter, so remove nothing: check the parameter is read
        // for a cluster whose spec does not set it.
        FAILED.at("2026-11-30T08:58:50Z").fire().assertNotFired(START);
    }

    @Test
    void aWrongExpectationFailsWithTheActualPlan() {
        assertThatThrownBy(() -> FAILED.at("2026-11-30T09:00:00Z").fire()
                .assertAction(Map.of("action", "setStatus", "path", "targetPrimary", "value", "pg-1")))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("but the plan has")
                .hasMessageContaining("value: pg-2");
    }
}
