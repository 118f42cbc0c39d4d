package dev.runbook.runbooks;

import dev.runbook.testkit.scenario.CycleTester;
import dev.runbook.engine.state.StateFiles;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
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
    void theSpecsFailoverDelayWinsOverTheParameter() {
        // the sample sets spec.failoverDelay: 30s; the primary has been not ready for 90s at 09:00
        FAILED.param("failoverDelay", "10m").at("2026-11-30T09:00:00Z").fire().assertFired(START);
    }

    @Test
    void withoutASpecDelayTheFailoverDelayParameterDecides() {
        CycleTester unset = CycleTester.of(BUNDLE).given(withoutSpecFailoverDelay(BUNDLE.resolve("samples/primary-failed.yaml")));
        unset.param("failoverDelay", "2m").at("2026-11-30T09:00:00Z").fire().assertNotFired(START);
        unset.param("failoverDelay", "1m").at("2026-11-30T09:00:00Z").fire().assertFired(START);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object>[] withoutSpecFailoverDelay(Path stateFile) {
        return StateFiles.read(List.of(stateFile)).stream().map(observed -> {
            Map<String, Object> object = new LinkedHashMap<>(observed.object());
            if (object.get("spec") instanceof Map<?, ?> spec && spec.containsKey("failoverDelay")) {
                Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) spec);
                copy.remove("failoverDelay");
                object.put("spec", copy);
            }
            return object;
        }).toArray(Map[]::new);
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
