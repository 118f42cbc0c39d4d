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

import static org.assertj.core.api.Assertions.assertThat;

class ChangesEventTest {
    static final Primary APP = CycleSummaryTest.APP;
    static final PlannedAction PHASE = CycleSummaryTest.PHASE;
    static final PlannedAction READY = CycleSummaryTest.READY;

    static PlannedAction label(String name, String rule) {
        return new PlannedAction(Actions.label(APP, name, "yes"), List.of(rule));
    }

    @Test
    void aCycleThatChangedNothingRecordsNoEvent() {
        assertThat(ChangesEvent.of(List.of(new AppliedAction(PHASE, Outcome.NONE), new AppliedAction(READY, Outcome.NONE)))).isEmpty();
        assertThat(ChangesEvent.of(List.of())).isEmpty();
    }

    @Test
    void oneEventListsEveryChangeWithItsOutcomeGroupedByTheRulesThatAskedForIt() {
        PlannedAction a = label("a", "Label it");
        PlannedAction b = label("b", "Label it");
        var event = ChangesEvent.of(List.of(new AppliedAction(a, Outcome.UPDATED), new AppliedAction(PHASE, Outcome.UPDATED),
                new AppliedAction(READY, Outcome.NONE), new AppliedAction(b, Outcome.UPDATED))).orElseThrow();

        assertThat(event.reason()).isEqualTo("Updated");
        assertThat(event.message()).isEqualTo("label WebApp demo/shop a (updated), label WebApp demo/shop b (updated), "
                + "asked by rule 'Label it'; setStatus WebApp demo/shop phase (updated), asked by rule 'Phase'");
    }

    @Test
    void theReasonIsTheOutcomeWhenAllAgreeElseApplied() {
        assertThat(ChangesEvent.of(List.of(new AppliedAction(PHASE, Outcome.CREATED))).orElseThrow().reason()).isEqualTo("Created");
        assertThat(ChangesEvent.of(List.of(new AppliedAction(PHASE, Outcome.DELETED))).orElseThrow().reason()).isEqualTo("Deleted");
        var mixed = ChangesEvent.of(List.of(new AppliedAction(PHASE, Outcome.CREATED), new AppliedAction(READY, Outcome.UPDATED)))
                .orElseThrow();
        assertThat(mixed.reason()).isEqualTo("Applied");
        assertThat(mixed.message()).isEqualTo("setStatus WebApp demo/shop phase (created), asked by rule 'Phase'; "
                + "setCondition WebApp demo/shop Ready (updated), asked by rule 'Ready'");
    }

    @Test
    void aRulesOwnEventsAndRequeuesAreNotListed() {
        PlannedAction event = new PlannedAction(Actions.event(APP, "Hello", "hi"), List.of("Greet"));
        PlannedAction requeue = new PlannedAction(Actions.requeue(APP, "5s"), List.of("Again"));
        assertThat(ChangesEvent.of(List.of(new AppliedAction(event, Outcome.CREATED), new AppliedAction(requeue, Outcome.UPDATED))))
                .isEmpty();
    }

    @Test
    void aCycleThatChangedMoreThanFitsSaysHowManyMoreWithinTheEventsLimit() {
        List<AppliedAction> applied = new ArrayList<>();
        for (int i = 0; i < 100; i++) applied.add(new AppliedAction(label("label-number-" + i, "Label everything"), Outcome.UPDATED));

        String message = ChangesEvent.of(applied).orElseThrow().message();

        assertThat(message.length()).isLessThanOrEqualTo(EventWriter.MAX_MESSAGE);
        assertThat(message).startsWith("label WebApp demo/shop label-number-0 (updated), ")
                .contains(", asked by rule 'Label everything'; and ")
                .endsWith(" more changes (status.lastCycle lists the cycle's actions)");
        int listed = message.split("\\(updated\\)", -1).length - 1;
        assertThat(message).contains("; and " + (100 - listed) + " more changes");
    }

    @Test
    void anActionAskedForByNoRuleSaysSo() {
        PlannedAction orphan = new PlannedAction(Actions.setStatus(APP, "phase", "x"), List.of());
        assertThat(ChangesEvent.of(List.of(new AppliedAction(orphan, Outcome.UPDATED))).orElseThrow().message())
                .isEqualTo("setStatus WebApp demo/shop phase (updated), asked by no rule");
    }
}
