package dev.runbook.operator.health;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/** The pieces /readyz and /healthz are made of, on a clock the test moves. */
class HealthChecksTest {
    /** A clock that stands still until the test moves it. */
    static final class MovableClock extends Clock {
        private Instant now = Instant.parse("2026-12-01T09:00:00Z");

        void advance(Duration by) { now = now.plus(by); }

        @Override public ZoneId getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(ZoneId zone) { return this; }
        @Override public Instant instant() { return now; }
    }

    final MovableClock clock = new MovableClock();

    @Test
    void aWorkerBusyPastItsDeadlineLooksStuck() {
        Heartbeat heartbeat = new Heartbeat("the reload worker", Duration.ofMinutes(3), clock);
        assertThat(heartbeat.problems()).isEmpty();
        heartbeat.begin("configmap/runbook-system/postgres-cluster");
        clock.advance(Duration.ofMinutes(2));
        assertThat(heartbeat.problems()).isEmpty();
        clock.advance(Duration.ofMinutes(2));
        assertThat(heartbeat.problems()).singleElement().asString()
                .contains("the reload worker has been busy with configmap/runbook-system/postgres-cluster for 240s", "deadline of 180s");
        heartbeat.end();
        assertThat(heartbeat.problems()).isEmpty();
    }

    @Test
    void theApiServerProbeSaysWhenTheServerDoesNotAnswerAndWhenItHangs() {
        AtomicBoolean up = new AtomicBoolean(true);
        ApiServerProbe probe = new ApiServerProbe(() -> {
            if (!up.get()) throw new java.net.ConnectException("Connection refused");
        }, "https://10.0.0.1:6443", clock);
        probe.probe();
        assertThat(probe.problems()).isEmpty();

        up.set(false);
        probe.probe();
        assertThat(probe.problems()).singleElement().asString()
                .startsWith("the API server https://10.0.0.1:6443 does not answer: Connection refused");

        up.set(true);
        probe.probe();
        assertThat(probe.problems()).isEmpty();
        // No answer at all for longer than three periods: a request hanging.
        clock.advance(ApiServerProbe.STALE_AFTER.plusSeconds(1));
        assertThat(probe.problems()).singleElement().asString().contains("has not answered since");
    }

    @Test
    void livenessFailsOnlyOnARunOfDeadlineOverruns() {
        DeadlineOverruns overruns = new DeadlineOverruns(3);
        overruns.exceeded("cycle of PostgresCluster demo/pg", Duration.ofSeconds(10));
        overruns.exceeded("cycle of PostgresCluster demo/pg", Duration.ofSeconds(10));
        overruns.withinDeadline("cycle of PostgresCluster demo/other");
        overruns.exceeded("reload of configmap/runbook-system/pg", Duration.ofSeconds(180));
        assertThat(overruns.problems()).isEmpty();
        overruns.exceeded("cycle of PostgresCluster demo/pg", Duration.ofSeconds(10));
        overruns.exceeded("cycle of PostgresCluster demo/pg", Duration.ofSeconds(10));
        assertThat(overruns.problems()).singleElement().asString()
                .startsWith("3 cycles or reloads in a row exceeded their deadline, the last cycle of PostgresCluster demo/pg");
    }
}
