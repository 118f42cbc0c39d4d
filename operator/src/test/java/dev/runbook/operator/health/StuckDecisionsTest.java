package dev.runbook.operator.health;

import dev.runbook.operator.testkit.SteppedClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static dev.runbook.operator.metrics.OperatorMetricsTest.APP;
import static org.assertj.core.api.Assertions.assertThat;

class StuckDecisionsTest {
    final SteppedClock clock = new SteppedClock();
    final StuckDecisions decisions = new StuckDecisions(Duration.ofSeconds(90), clock);

    @Test
    void aDecisionPastItsBoundFailsLivenessNamingItsPrimary() {
        decisions.started(APP);
        clock.advance(Duration.ofSeconds(60));
        assertThat(decisions.problems()).isEmpty();

        clock.advance(Duration.ofSeconds(31));

        assertThat(decisions.problems()).singleElement().asString()
                .startsWith("the decision of " + APP.getKind() + " " + APP.getNamespace() + "/" + APP.getName() + " has run for 91s")
                .contains("its reconcile thread is stuck");
    }

    @Test
    void aDecisionThatEndedIsForgotten() {
        decisions.started(APP);
        decisions.ended();
        clock.advance(Duration.ofMinutes(10));

        assertThat(decisions.problems()).isEmpty();
    }
}
