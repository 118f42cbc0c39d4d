package dev.runbook.engine.decide;

import dev.runbook.engine.TestBundles;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.state.ObservationBuilder;
import dev.runbook.engine.state.ObservedObject;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The engine keeps a paused primary's acting rules from firing (bundles/pausing: bundle.yaml's pause: field: spec.paused). */
class PauseGuardTest {
    private static final CompiledBundle PAUSING = TestBundles.compiled("pausing");

    private static Decision decide(Map<String, Object> spec) {
        Map<String, Object> valve = Map.of("apiVersion", "example.runbook.dev/v1", "kind", "Valve",
                "metadata", Map.of("name", "v1", "namespace", "demo"), "spec", spec);
        var observation = ObservationBuilder.build(PAUSING.spec(), List.of(new ObservedObject(valve, "valve.yaml", 1)), null,
                Instant.parse("2026-11-30T09:00:00Z"), Map.of());
        return DecisionCycle.run(PAUSING, observation);
    }

    private static List<String> actions(Decision decision) {
        return decision.actions().stream().map(p -> p.action().getType() + " by " + p.rules()).toList();
    }

    @Test
    void aPrimaryThatIsNotPausedFiresEveryRule() {
        Decision decision = decide(Map.of("open", true));

        assertThat(actions(decision)).containsExactly("label by [Open the valve]", "setStatus by [Report the opened valve]");
        assertThat(decision.firedRules()).doesNotContain("Say the valve is paused");
    }

    @Test
    void whilePausedARuleThatAsksForAnActionDoesNotFireAtAllAndWhatItWouldDeriveIsNotThere() {
        Decision decision = decide(Map.of("open", true, "paused", true));

        // No label, and no status from the fact "Open the valve" would have derived: the rule never fired.
        assertThat(actions(decision)).containsExactly("setCondition by [Say the valve is paused]");
        assertThat(decision.firedRules()).contains("A valve asked to be open is opening").doesNotContain("Open the valve");
        assertThat(decision.firings()).filteredOn(f -> f.rule().equals("Say the valve is paused")).singleElement()
                .satisfies(f -> assertThat(f.matched()).contains("Paused( by=spec.paused )"));
    }
}
