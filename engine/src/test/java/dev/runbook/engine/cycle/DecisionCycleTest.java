package dev.runbook.engine.cycle;

import dev.runbook.engine.TestBundles;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.plan.PlanYaml;
import dev.runbook.engine.state.ObservationBuilder;
import dev.runbook.engine.state.StateFiles;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DecisionCycleTest {
    private static final Instant NOW = Instant.parse("2026-11-30T09:00:00Z");

    private Decision decide(String sample, Instant now, Map<String, ?> params) {
        CompiledBundle bundle = TestBundles.compiled("example");
        var objects = StateFiles.read(List.of(TestBundles.directory("example").resolve("samples/" + sample)));
        return DecisionCycle.run(bundle, ObservationBuilder.build(bundle.spec(), objects, null, now, params));
    }

    @Test
    void promotesTheMostAdvancedReadyReplicaOnceTheDelayHasPassed() {
        Decision decision = decide("primary-failed.yaml", NOW, Map.of());
        System.out.println(PlanYaml.dump(PlanYaml.toMap(decision, "x")));
        assertThat(decision.isValid()).isTrue();
        assertThat(decision.firedRules()).contains("Promote the most advanced ready replica when the primary has failed");
    }
}
