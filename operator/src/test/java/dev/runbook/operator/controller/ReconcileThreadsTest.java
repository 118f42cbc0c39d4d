package dev.runbook.operator.controller;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ReconcileThreadsTest {
    @Test
    void twoPerProcessorAndNeverFewerThanFour() {
        assertThat(ReconcileThreads.forProcessors(1)).isEqualTo(4);
        assertThat(ReconcileThreads.forProcessors(2)).isEqualTo(4);
        assertThat(ReconcileThreads.forProcessors(4)).isEqualTo(8);
        assertThat(ReconcileThreads.forProcessors(16)).isEqualTo(32);
    }

    @Test
    void theDefaultFollowsTheProcessorsThisJvmMayUse() {
        assertThat(ReconcileThreads.byDefault())
                .isEqualTo(ReconcileThreads.forProcessors(Runtime.getRuntime().availableProcessors()));
    }

    @Test
    void fewerThanOneIsAProblemNamingTheFix() {
        assertThat(ReconcileThreads.problem(1)).isNull();
        assertThat(ReconcileThreads.problem(0)).startsWith("give at least 1 (the default here is ");
        assertThat(ReconcileThreads.problem(-3)).isNotNull();
    }

    @Test
    void theOptionElseTheVariableElseTheDefault() {
        Map<String, String> sixteen = Map.of(ReconcileThreads.VARIABLE, "16");
        assertThat(ReconcileThreads.chosen(3, sixteen)).isEqualTo(new ReconcileThreads.Choice(3, null));
        assertThat(ReconcileThreads.chosen(null, sixteen)).isEqualTo(new ReconcileThreads.Choice(16, null));
        assertThat(ReconcileThreads.chosen(null, Map.of(ReconcileThreads.VARIABLE, " 32\n")))
                .isEqualTo(new ReconcileThreads.Choice(32, null));
        assertThat(ReconcileThreads.chosen(null, Map.of())).isEqualTo(new ReconcileThreads.Choice(ReconcileThreads.byDefault(), null));
        assertThat(ReconcileThreads.chosen(null, Map.of(ReconcileThreads.VARIABLE, "  ")))
                .isEqualTo(new ReconcileThreads.Choice(ReconcileThreads.byDefault(), null));
    }

    @Test
    void aBadCountNamesWhereItCameFrom() {
        assertThat(ReconcileThreads.chosen(0, Map.of()).problem()).startsWith("--reconcile-threads 0: give at least 1");
        assertThat(ReconcileThreads.chosen(null, Map.of(ReconcileThreads.VARIABLE, "-2")).problem())
                .startsWith("RUNBOOK_RECONCILE_THREADS=-2: give at least 1").endsWith(", or unset it");
        assertThat(ReconcileThreads.chosen(null, Map.of(ReconcileThreads.VARIABLE, "8x")).problem())
                .startsWith("RUNBOOK_RECONCILE_THREADS=8x: not a whole number; give at least 1");
        assertThat(ReconcileThreads.chosen(null, Map.of(ReconcileThreads.VARIABLE, "99999999999")).problem())
                .startsWith("RUNBOOK_RECONCILE_THREADS=99999999999: not a whole number");
    }
}
