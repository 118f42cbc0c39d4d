package dev.runbook.operator.reload;

import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.health.Heartbeat;
import dev.runbook.operator.testkit.GreeterBundles;
import dev.runbook.operator.testkit.NeedsSandbox;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.ShippedBundles;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The accepted copies of bundle ConfigMaps with sharding: every replica reloads, only the holder of the
 * leader Lease writes the copies ({@link BundleReloader}'s {@code keepsCopies}), so that a slower replica
 * never puts an older copy back over a newer one; a replica that takes the Lease writes what it accepted
 * and is not written yet.
 */
@RunbookIT(crds = "src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml")
@NeedsSandbox
class AcceptedCopiesIT {
    private static final String CONFIG_MAP = "runbook-bundle-greeter";

    @TempDir
    Path work;
    KubernetesClient client;
    @TestNamespace("system")
    String system;
    @TestNamespace("apps")
    String apps;

    RunbookOperator operator;
    BundleReloader reloader;

    @AfterEach
    void stop() {
        if (reloader != null) reloader.close();
        if (operator != null) operator.close();
    }

    @Test
    void onlyTheLeaderWritesTheCopyAndANewLeaderWritesWhatItAccepted() {
        AtomicBoolean leads = new AtomicBoolean(false);
        HotReloadIT.Reloads reloads = new HotReloadIT.Reloads();
        operator = RunbookOperator.builder(client).namespaces(Set.of(apps)).build();
        operator.start();
        reloader = new BundleReloader(client, system, operator, reloads, Clock.systemUTC(),
                new Heartbeat("the reload worker", Duration.ofMinutes(3), Clock.systemUTC()), new BundleVetting(Policy.DEFAULT), leads::get);
        reloader.start();
        ShippedBundles shipped = new ShippedBundles(client, system);
        AcceptedBundles copies = new AcceptedBundles(client, system);

        shipped.ship(CONFIG_MAP, GreeterBundles.greeter(work, "v1", "hello"));
        // The copy is written before the acceptance is reported: once reported, a write would be there.
        await().atMost(TestCluster.CONVERGE).until(() -> reloads.accepted.size() == 1);
        assertThat(copies.find(CONFIG_MAP)).as("a replica that does not lead writes no copy").isEmpty();

        leads.set(true);
        reloader.writeCopies();
        await().atMost(TestCluster.CONVERGE).until(() -> copies.find(CONFIG_MAP).isPresent());
        String first = copies.find(CONFIG_MAP).orElseThrow().contentHash();
        assertThat(copies.find(CONFIG_MAP).map(AcceptedBundles.Accepted::bundleName)).isEqualTo(Optional.of("greeter"));

        shipped.ship(CONFIG_MAP, GreeterBundles.greeter(work, "v2", "bonjour"));
        await().atMost(TestCluster.CONVERGE).until(() -> reloads.accepted.size() == 2);
        assertThat(copies.find(CONFIG_MAP).orElseThrow().contentHash()).as("the leader writes each acceptance").isNotEqualTo(first);
    }
}
