package dev.runbook.operator.record;

import dev.runbook.engine.apply.Outcome;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.operator.act.AppliedAction;
import dev.runbook.operator.kube.EventWriter;
import dev.runbook.rules.action.Actions;
import dev.runbook.rules.fact.Primary;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ChangesEventTest {
    static final Primary APP = CycleSummaryTest.APP;
    static final PlannedAction PHASE = CycleSummaryTest.PHASE;
    static final PlannedAction READY = CycleSummaryTest.READY;

    static PlannedAction label(String name, String rule) {
        return new PlannedAction(Actions.label(APP, name, "yes"), List.of(rule));
    }

    static PlannedAction config(String name, String rule) {
        return new PlannedAction(Actions.apply(Map.of("apiVersion", "v1", "kind", "ConfigMap",
                "metadata", Map.of("name", name, "namespace", "demo"))), List.of(rule));
    }

    static Optional<ChangesEvent> of(List<AppliedAction> applied) {
        return ChangesEvent.of(applied, APP.getRef());
    }

    @Test
    void aCycleThatChangedNothingRecordsNoEvent() {
        assertThat(of(List.of(new AppliedAction(label("a", "Label it"), Outcome.NONE), new AppliedAction(READY, Outcome.NONE)))).isEmpty();
        assertThat(of(List.of())).isEmpty();
    }

    @Test
    void oneEventListsEveryChangeWithItsOutcomeGroupedByTheRulesThatAskedForIt() {
        PlannedAction a = label("a", "Label it");
        PlannedAction b = label("b", "Label it");
        var event = of(List.of(new AppliedAction(a, Outcome.UPDATED), new AppliedAction(config("shop-config", "Configure"), Outcome.UPDATED),
                new AppliedAction(config("shop-extra", "Extra"), Outcome.NONE), new AppliedAction(b, Outcome.UPDATED))).orElseThrow();

        assertThat(event.reason()).isEqualTo("Updated");
        assertThat(event.message()).isEqualTo("label WebApp demo/shop a (updated), label WebApp demo/shop b (updated), "
                + "asked by rule 'Label it'; apply ConfigMap demo/shop-config (updated), asked by rule 'Configure'");
    }

    @Test
    void thePrimarysOwnStatusChangesAreLeftOutAndAloneRecordNoEvent() {
        assertThat(of(List.of(new AppliedAction(PHASE, Outcome.UPDATED), new AppliedAction(READY, Outcome.UPDATED)))).isEmpty();

        var event = of(List.of(new AppliedAction(PHASE, Outcome.UPDATED), new AppliedAction(config("shop-config", "Configure"), Outcome.CREATED),
                new AppliedAction(READY, Outcome.UPDATED))).orElseThrow();
        assertThat(event.reason()).as("the outcome of the changes listed").isEqualTo("Created");
        assertThat(event.message()).isEqualTo("apply ConfigMap demo/shop-config (created), asked by rule 'Configure'");
    }

    @Test
    void theStatusOfAnotherObjectIsListed() {
        Primary other = new Primary(Map.of("apiVersion", "test.runbook.dev/v1", "kind", "WebApp",
                "metadata", Map.of("name", "other", "namespace", "demo")));
        PlannedAction otherPhase = new PlannedAction(Actions.setStatus(other, "phase", "Serving"), List.of("Phase"));

        assertThat(of(List.of(new AppliedAction(otherPhase, Outcome.UPDATED), new AppliedAction(PHASE, Outcome.UPDATED)))
                .orElseThrow().message()).isEqualTo("setStatus WebApp demo/other phase (updated), asked by rule 'Phase'");
    }

    @Test
    void theReasonIsTheOutcomeWhenAllAgreeElseApplied() {
        PlannedAction shopConfig = config("shop-config", "Configure");
        assertThat(of(List.of(new AppliedAction(shopConfig, Outcome.CREATED))).orElseThrow().reason()).isEqualTo("Created");
        assertThat(of(List.of(new AppliedAction(shopConfig, Outcome.DELETED))).orElseThrow().reason()).isEqualTo("Deleted");
        var mixed = of(List.of(new AppliedAction(shopConfig, Outcome.CREATED), new AppliedAction(label("a", "Label it"), Outcome.UPDATED)))
                .orElseThrow();
        assertThat(mixed.reason()).isEqualTo("Applied");
        assertThat(mixed.message()).isEqualTo("apply ConfigMap demo/shop-config (created), asked by rule 'Configure'; "
                + "label WebApp demo/shop a (updated), asked by rule 'Label it'");
    }

    @Test
    void aRulesOwnEventsAndRequeuesAreNotListed() {
        PlannedAction event = new PlannedAction(Actions.event(APP, "Hello", "hi"), List.of("Greet"));
        PlannedAction requeue = new PlannedAction(Actions.requeue(APP, "5s"), List.of("Again"));
        assertThat(of(List.of(new AppliedAction(event, Outcome.CREATED), new AppliedAction(requeue, Outcome.UPDATED))))
                .isEmpty();
    }

    @Test
    void aCycleThatChangedMoreThanFitsSaysHowManyMoreWithinTheEventsLimit() {
        List<AppliedAction> applied = new ArrayList<>();
        for (int i = 0; i < 100; i++) applied.add(new AppliedAction(label("label-number-" + i, "Label everything"), Outcome.UPDATED));

        String message = of(applied).orElseThrow().message();

        assertThat(message.length()).isLessThanOrEqualTo(EventWriter.MAX_MESSAGE);
        assertThat(message).startsWith("label WebApp demo/shop label-number-0 (updated), ")
                .contains(", asked by rule 'Label everything'; and ")
                .endsWith(" more changes (status.lastCycle lists the cycle's actions)");
        int listed = message.split("\\(updated\\)", -1).length - 1;
        assertThat(message).contains("; and " + (100 - listed) + " more changes");
    }

    @Test
    void anActionAskedForByNoRuleSaysSo() {
        PlannedAction orphan = new PlannedAction(Actions.label(APP, "x", "y"), List.of());
        assertThat(of(List.of(new AppliedAction(orphan, Outcome.UPDATED))).orElseThrow().message())
                .isEqualTo("label WebApp demo/shop x (updated), asked by no rule");
    }
}
