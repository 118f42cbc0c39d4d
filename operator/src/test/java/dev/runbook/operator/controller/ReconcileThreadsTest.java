package dev.runbook.operator.controller;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ReconcileThreadsTest {
    @Test
    void fourPerProcessorAndNeverFewerThanFour() {
        assertThat(ReconcileThreads.forProcessors(1)).isEqualTo(4);
        assertThat(ReconcileThreads.forProcessors(2)).isEqualTo(8);
        assertThat(ReconcileThreads.forProcessors(16)).isEqualTo(64);
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
}
