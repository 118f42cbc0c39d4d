package dev.runbook.operator.health;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.operator.cycle.CycleListener;
import dev.runbook.operator.leader.LeaderElection;
import dev.runbook.operator.metrics.OperatorMetrics;
import dev.runbook.operator.runtime.OperatorRuntime;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Health that tells the truth, against an API server: one that is down, and a second operator acting. */
@RunbookIT
class HealthIT {
    static final Path GREETER = Path.of("src/test/resources/bundles/greeter");

    @Test
    void notReadyWhileTheApiServerIsUnreachable() {
        CompiledBundle bundle = BundleCompiler.compile(BundleLoader.load(GREETER));
        // Nothing listens on port 1: every request is refused. A standby (leader election) starts at once.
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                     .withMasterUrl("http://127.0.0.1:1").withConnectionTimeout(500).withRequestTimeout(500).build()).build();
             OperatorMetrics metrics = new OperatorMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))) {
            var lease = new OperatorRuntime.Lease("runbook-system", "runbook-operator", "it-1", LeaderElection.Timing.DEFAULT, client);
            var settings = new OperatorRuntime.Settings(List.of(bundle), Set.of(), null, lease);
            try (OperatorRuntime runtime = new OperatorRuntime(client, settings, Clock.systemUTC(), metrics, CycleListener.NONE)) {
                runtime.start();
                await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(runtime.notReady())
                        .anySatisfy(p -> assertThat(p).startsWith("the API server http://127.0.0.1:1/ does not answer: ")));
            }
        }
    }

    @TestNamespace("presence")
    String namespace;

    @Test
    void aSecondOperatorActingIsWarnedAbout(KubernetesClient client) {
        PrometheusMeterRegistry first = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        PrometheusMeterRegistry second = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        OperatorPresence one = new OperatorPresence(client, namespace, "operator-a", Clock.systemUTC(), first);
        OperatorPresence two = new OperatorPresence(client, namespace, "operator-b", Clock.systemUTC(), second);

        assertThat(one.renewAndLook()).isEmpty();
        assertThat(two.renewAndLook()).containsExactly("operator-a");
        assertThat(one.renewAndLook()).containsExactly("operator-b");
        assertThat(first.scrape()).contains(OperatorPresence.METRIC + " 1.0");
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(client.v1().events().inNamespace(namespace).list().getItems())
                .anySatisfy(e -> {
                    assertThat(e.getReason()).isEqualTo(OperatorPresence.REASON);
                    assertThat(e.getType()).isEqualTo("Warning");
                    assertThat(e.getMessage()).contains("without leader election");
                }));

        two.withdraw();
        assertThat(one.renewAndLook()).isEmpty();
        assertThat(first.scrape()).contains(OperatorPresence.METRIC + " 0.0");
    }

    @Test
    void shardMembersAreNotWarnedAboutEachOtherButAboutAnUnshardedOperator(KubernetesClient client) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        OperatorPresence a = new OperatorPresence(client, namespace, "operator-a", "replica-a", Clock.systemUTC(), registry);
        OperatorPresence b = new OperatorPresence(client, namespace, "operator-b", "replica-b", Clock.systemUTC(),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));

        assertThat(a.renewAndLook()).isEmpty();
        assertThat(b.renewAndLook()).as("the other members of the ring act on their own shares").isEmpty();
        assertThat(a.renewAndLook()).isEmpty();
        assertThat(registry.scrape()).contains(OperatorPresence.METRIC + " 0.0");

        OperatorPresence unsharded = new OperatorPresence(client, namespace, "operator-c", Clock.systemUTC(),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        assertThat(unsharded.renewAndLook()).as("an unsharded operator acts on every primary").containsExactlyInAnyOrder("operator-a", "operator-b");
        assertThat(a.renewAndLook()).containsExactly("operator-c");
        assertThat(registry.scrape()).contains(OperatorPresence.METRIC + " 1.0");
    }
}
