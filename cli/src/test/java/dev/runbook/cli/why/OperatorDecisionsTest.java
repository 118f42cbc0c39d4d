package dev.runbook.cli.why;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OperatorDecisionsTest {
    @Test
    void theLeasesHolderIsItsPodsNameAndEightHexDigits() {
        assertThat(OperatorDecisions.podOf("runbook-operator-5d9c7b6f4-x7k2q-1a2b3c4d")).isEqualTo("runbook-operator-5d9c7b6f4-x7k2q");
        assertThat(OperatorDecisions.podOf("runbook-1a2b3c4d")).isEqualTo("runbook");
        assertThat(OperatorDecisions.podOf("a-pod-named-by-hand")).isEqualTo("a-pod-named-by-hand");
    }
}
