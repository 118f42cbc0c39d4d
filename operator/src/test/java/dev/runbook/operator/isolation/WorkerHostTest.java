package dev.runbook.operator.isolation;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.containment.ContainmentLimits;
import dev.runbook.engine.containment.FirstLineSwitch;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.policy.Isolation;
import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.testkit.ProjectFiles;
import dev.runbook.operator.error.Reasons;
import dev.runbook.operator.error.TemporaryException;
import dev.runbook.operator.reload.BundleConfigMaps;
import dev.runbook.rules.fact.Primary;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Workers through the worker host, as the pod's second container runs them: one worker per connection
 * to its socket, killed when the operator closes the connection.
 */
class WorkerHostTest {
    static final Path GREETER = ProjectFiles.of("operator/src/test/resources/bundles/greeter");
    static final Path SLEEP = ProjectFiles.of("operator/src/test/resources/bundles/escape/sleep");

    @TempDir
    Path work;

    WorkerHost host;
    Policy policy;

    @BeforeEach
    void startTheHost() throws Exception {
        host = new WorkerHost(work.resolve("worker.sock"), Isolation.Worker.PROCESS);
        policy = new Policy(Policy.DEFAULT.defaults(), Map.of(), Policy.SYSTEM_NAMESPACES,
                new ContainmentLimits(Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(20), 64L << 20), "a test policy")
                .withIsolation(new Isolation(Isolation.Trust.IN_PROCESS, Isolation.Trust.ISOLATED, Isolation.Worker.SOCKET,
                        host.socket(), 256, Duration.ofMinutes(10)));
    }

    @AfterEach
    void stopTheHost() throws Exception {
        host.close();
    }

    @Test
    void aBundleVettedAndDecidingThroughTheHostRunsInAWorkerOfItsOwnThatEndsWithItsConnection() {
        IsolatedBundle greeter = load(GREETER, true);
        assertThat(greeter.scenarios()).isEqualTo(1);
        assertThat(host.workers()).isEqualTo(1);

        var decision = greeter.decide(observation(), policy);

        assertThat(decision.firedRules()).containsExactly("Greet hello");
        greeter.close();
        await().atMost(Duration.ofSeconds(30)).until(() -> host.workers() == 0);
    }

    @Test
    void aWorkerPastItsBoundIsKilledByClosingItsConnection() {
        IsolatedBundle sleeping = FirstLineSwitch.off(() -> load(SLEEP, false));

        assertThatThrownBy(() -> sleeping.decide(observation(), policy))
                .isInstanceOfSatisfying(TemporaryException.class, e -> assertThat(e.failure().reason()).isEqualTo(Reasons.WORKER_STOPPED))
                .hasMessageContaining("ran past its bound of 14 s");
        await().atMost(Duration.ofSeconds(30)).until(() -> host.workers() == 0);
    }

    private IsolatedBundle load(Path directory, boolean vet) {
        return IsolatedBundle.load(BundleLoader.load(directory), BundleConfigMaps.files(BundleConfigMaps.pack(directory)), policy,
                WorkerLauncher.of(policy.isolation(), 2), vet);
    }

    private static Observation observation() {
        return new Observation(new Primary(Map.of("apiVersion", "test.runbook.dev/v1", "kind", "WebApp",
                "metadata", Map.of("name", "shop", "namespace", "demo", "uid", "u-1"), "spec", Map.of("counter", "1"))),
                List.of(), Instant.parse("2026-11-30T09:00:00Z"));
    }
}
