package dev.runbook.operator.history;

import dev.runbook.engine.apply.Outcome;
import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.Firing;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.operator.act.AppliedAction;
import dev.runbook.operator.error.Failure;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.rules.action.Actions;
import dev.runbook.rules.action.Apply;
import dev.runbook.rules.fact.Primary;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DecisionHistoryTest {
    static final Primary APP = new Primary(Map.of("apiVersion", "test.runbook.dev/v1", "kind", "WebApp",
            "metadata", Map.of("name", "shop", "namespace", "demo", "uid", "u-1")));
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T09:00:00Z"), ZoneOffset.UTC);

    private static PlannedAction phase(String value) {
        return new PlannedAction(Actions.setStatus(APP, "phase", value), List.of("Phase"));
    }

    private static CycleReport cycle(String id, PlannedAction action, Outcome outcome) {
        Decision decision = new Decision("web-app", "abc", CLOCK.instant(),
                List.of(new Firing("Phase", List.of(APP), List.of(action.action()), List.of(), List.of())), List.of(action), List.of());
        return new CycleReport(id, "web-app", "abc", BundleSpec.Mode.ENFORCE, false, decision,
                List.of(new AppliedAction(action, outcome)), null, null, Duration.ofMillis(12));
    }

    @Test
    void keepsTheLastDecisionsNewestFirstWithWhatTheCycleDidWithEach() {
        DecisionHistory history = new DecisionHistory(2, CLOCK);
        history.cycleRecorded(APP, cycle("p-1", phase("Starting"), Outcome.UPDATED));
        history.cycleRecorded(APP, cycle("p-2", phase("Serving"), Outcome.UPDATED));
        history.cycleRecorded(APP, cycle("p-3", phase("Degraded"), Outcome.UPDATED));

        List<Map<String, Object>> decisions = history.decisions("demo", "shop").orElseThrow();
        assertThat(decisions).extracting(d -> d.get("cycle")).containsExactly("p-3", "p-2");
        Map<String, Object> newest = decisions.get(0);
        assertThat(newest).containsEntry("primary", "WebApp demo/shop").containsEntry("mode", "enforce")
                .containsEntry("outcome", "ok").containsEntry("took", "12ms").containsEntry("valid", true)
                .containsEntry("bundle", "web-app@abc").containsEntry("at", "2026-11-30T09:00:00Z");
        assertThat(newest.get("fired").toString()).contains("rule=Phase", "matched=[WebApp demo/shop]");
        assertThat((List<?>) newest.get("actions")).singleElement().satisfies(a -> assertThat(asMap(a))
                .containsEntry("action", "setStatus").containsEntry("path", "phase").containsEntry("value", "Degraded")
                .containsEntry("outcome", "UPDATED").containsEntry("by", List.of("Phase")));
        assertThat(history.json("demo", "shop")).hasValueSatisfying(json -> assertThat(json).startsWith("{\"decisions\":[{"));
        assertThat(history.decisions("demo", "other")).isEmpty();
    }

    @Test
    void aDecisionLikeTheOneBeforeCountsOnItInsteadOfPushingItOut() {
        DecisionHistory history = new DecisionHistory(2, CLOCK);
        history.cycleRecorded(APP, cycle("p-1", phase("Starting"), Outcome.UPDATED));
        history.cycleRecorded(APP, cycle("p-2", phase("Serving"), Outcome.UPDATED));
        for (int i = 3; i <= 40; i++) history.cycleRecorded(APP, cycle("p-" + i, phase("Serving"), Outcome.NONE));

        List<Map<String, Object>> decisions = history.decisions("demo", "shop").orElseThrow();
        assertThat(decisions).extracting(d -> d.get("cycle")).containsExactly("p-3", "p-2");
        assertThat(decisions.get(0)).containsEntry("repeated", 37).containsEntry("lastCycle", "p-40");
        // An action that changed nothing is its name and outcome, not its object.
        assertThat((List<?>) decisions.get(0).get("actions")).singleElement().satisfies(a -> assertThat(asMap(a))
                .containsOnlyKeys("action", "by", "outcome").containsEntry("action", "setStatus WebApp demo/shop phase"));
    }

    @Test
    void aFailedCycleIsKeptWithItsFailure() {
        DecisionHistory history = new DecisionHistory(2, CLOCK);
        history.cycleRecorded(APP, new CycleReport("p-1", "web-app", "abc", BundleSpec.Mode.ENFORCE, false, null, List.of(), null,
                new Failure(Failure.Kind.PERMANENT, "RuleFailed", "rule 'Phase' failed: boom", List.of("Phase")), Duration.ZERO));

        assertThat(history.decisions("demo", "shop").orElseThrow()).singleElement().satisfies(d -> assertThat(d)
                .containsEntry("outcome", "failed").containsEntry("bundle", "web-app@abc")
                .containsEntry("failure", Map.of("reason", "RuleFailed", "message", "rule 'Phase' failed: boom (rules: Phase)")));
    }

    @Test
    void theDataOfASecretIsNotKept() {
        Map<String, Object> secret = new LinkedHashMap<>();
        secret.put("apiVersion", "v1");
        secret.put("kind", "Secret");
        secret.put("metadata", Map.of("name", "shop-credentials", "namespace", "demo"));
        secret.put("stringData", Map.of("password", "hunter2"));
        PlannedAction apply = new PlannedAction(new Apply(secret, "credentials.yaml"), List.of("Credentials"));
        DecisionHistory history = new DecisionHistory(2, CLOCK);
        history.cycleRecorded(APP, cycle("p-1", apply, Outcome.CREATED));

        String json = history.json("demo", "shop").orElseThrow();
        assertThat(json).doesNotContain("hunter2").contains("\"password\":\"(redacted, 7 characters)\"").contains("shop-credentials");
    }

    @Test
    void aDeletedPrimarysHistoryGoesWithIt() {
        DecisionHistory history = new DecisionHistory(2, CLOCK);
        history.cycleRecorded(APP, cycle("p-1", phase("Serving"), Outcome.UPDATED));
        history.controllerMetrics("web-app").cleanupDoneFor(new ResourceID("shop", "demo"), Map.of());

        assertThat(history.decisions("demo", "shop")).isEmpty();
        assertThat(history.bytes()).isZero();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        return (Map<String, Object>) value;
    }

    @Test
    void keepsAtLeastOne() {
        assertThatThrownBy(() -> new DecisionHistory(0, CLOCK)).isInstanceOf(IllegalArgumentException.class);
    }
}
