package dev.runbook.operator.runtime;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.DecidingBundle;
import dev.runbook.operator.leader.LeaderElection;
import dev.runbook.operator.metrics.OperatorMetrics;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.operator.reload.AcceptedBundles;
import dev.runbook.operator.testkit.Cycles;
import dev.runbook.operator.testkit.GreeterApps;
import dev.runbook.operator.testkit.GreeterBundles;
import dev.runbook.operator.testkit.ShippedBundles;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import dev.runbook.operator.testkit.NeedsSandbox;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static dev.runbook.operator.testkit.Objects.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Acceptance lasts: a bundle accepted from a ConfigMap keeps running after the operator restarts and
 * after another replica takes the Lease, even though the ConfigMap now holds a bundle that is refused;
 * the image's bundle does not come back. The image's bundle is the greeter ("hello"); the ConfigMap
 * ships it greeting "bonjour", then broken.
 */
@RunbookIT(crds = "src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml")
@NeedsSandbox
class AcceptanceIT {
    static final ResourceDefinitionContext WEB_APPS = GreeterBundles.WEB_APPS;
    static final String CONFIG_MAP = "runbook-bundle-greeter";

    static TestCluster cluster;
    static CompiledBundle image;

    @TempDir
    Path work;

    final List<AutoCloseable> closing = new ArrayList<>();
    KubernetesClient client;
    @TestNamespace("system")
    String system;
    @TestNamespace("apps")
    String apps;
    ShippedBundles shipped;
    GreeterApps greeted;

    @BeforeAll
    static void compileTheImagesBundle() {
        image = BundleCompiler.compile(BundleLoader.load(GreeterBundles.GREETER));
    }

    @BeforeEach
    void fixtures() {
        shipped = new ShippedBundles(client, system);
        greeted = new GreeterApps(client, apps);
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) closing.get(i).close();
    }

    @Test
    void afterARestartTheBundleAcceptedLastRunsNotTheImagesNorTheRefusedOne() throws Exception {
        OperatorRuntime first = runtime(new Cycles(), null);
        first.start();
        String accepted = acceptBonjourThenRefuseABrokenOne(first);

        first.close();
        Cycles cycles = new Cycles();
        OperatorRuntime second = runtime(cycles, null);
        second.start();

        assertThat(second.operator().orElseThrow().active(source()).orElseThrow().bundle().version()).isEqualTo(accepted);
        greeted.patchCounter(WEB_APPS, "shop", "2");
        greeted.awaitStatus(WEB_APPS, "shop", "seen", "2");
        assertOnlyRan(cycles, accepted);
        assertThat((String) at(greeted.get(WEB_APPS, "shop"), "status.greeting")).isEqualTo("bonjour");
        // The ConfigMap was looked at again, and refused again, saying what still runs.
        assertThat(shipped.events(CONFIG_MAP, "BundleRefused")).extracting(Event::getMessage).allSatisfy(message -> assertThat(message)
                .startsWith("rules/greet.drl:8:")
                .contains("the previous version keeps running: bundle greeter@" + accepted));
    }

    @Test
    void afterALeaderChangeTheNewLeaderRunsTheBundleAcceptedLast() throws Exception {
        Cycles cyclesA = new Cycles();
        OperatorRuntime a = runtime(cyclesA, "replica-a");
        a.start();
        await().atMost(TestCluster.CONVERGE).until(a::isActing);
        Cycles cyclesB = new Cycles();
        OperatorRuntime b = runtime(cyclesB, "replica-b");
        b.start();
        String accepted = acceptBonjourThenRefuseABrokenOne(a);
        assertThat(b.isActing()).isFalse();

        a.close(); // releases the Lease
        await().atMost(TestCluster.CONVERGE).until(b::isActing);

        assertThat(b.operator().orElseThrow().active(source()).orElseThrow().bundle().version()).isEqualTo(accepted);
        greeted.patchCounter(WEB_APPS, "shop", "3");
        greeted.awaitStatus(WEB_APPS, "shop", "seen", "3");
        assertOnlyRan(cyclesB, accepted);
        assertThat((String) at(greeted.get(WEB_APPS, "shop"), "status.greeting")).isEqualTo("bonjour");
    }

    @Test
    void aConfigMapDeletedWhileNoOperatorRanTakesItsAcceptedCopyWithIt() throws Exception {
        OperatorRuntime first = runtime(new Cycles(), null);
        first.start();
        acceptBonjourThenRefuseABrokenOne(first);
        first.close();

        client.configMaps().inNamespace(system).withName(CONFIG_MAP).delete();
        Cycles cycles = new Cycles();
        OperatorRuntime second = runtime(cycles, null);
        second.start();

        // The image's bundle runs again, and no copy is left behind.
        assertThat(second.operator().orElseThrow().bundles()).extracting(DecidingBundle::version).containsExactly(image.version());
        await().atMost(TestCluster.CONVERGE).until(() -> client.secrets().inNamespace(system)
                .withName(AcceptedBundles.secretName(CONFIG_MAP)).get() == null);
        greeted.patchCounter(WEB_APPS, "shop", "4");
        await().atMost(TestCluster.CONVERGE).until(() -> "4".equals(at(greeted.get(WEB_APPS, "shop"), "status.seen"))
                && "hello".equals(at(greeted.get(WEB_APPS, "shop"), "status.greeting")));
    }

    /**
     * Ships greeter "bonjour" (accepted: the app says bonjour and a copy is kept), then a broken greeter
     * (refused). Returns the accepted version.
     */
    private String acceptBonjourThenRefuseABrokenOne(OperatorRuntime runtime) {
        greeted.create(WEB_APPS, "shop");
        greeted.awaitStatus(WEB_APPS, "shop", "greeting", "hello");
        shipped.ship(CONFIG_MAP, GreeterBundles.greeter(work, "bonjour", "bonjour"));
        greeted.awaitStatus(WEB_APPS, "shop", "greeting", "bonjour");
        String accepted = runtime.operator().orElseThrow().active(source()).orElseThrow().bundle().version();
        await().atMost(TestCluster.CONVERGE).until(() -> client.secrets().inNamespace(system)
                .withName(AcceptedBundles.secretName(CONFIG_MAP)).get() != null);

        shipped.ship(CONFIG_MAP, GreeterBundles.broken(work, "broken"));
        await().atMost(TestCluster.CONVERGE).until(() -> !shipped.events(CONFIG_MAP, "BundleRefused").isEmpty());
        assertThat(runtime.operator().orElseThrow().active(source()).orElseThrow().bundle().version()).isEqualTo(accepted);
        return accepted;
    }

    /** Every cycle the replica ran on the app ran {@code version}: never the image's bundle, not even at start. */
    private void assertOnlyRan(Cycles cycles, String version) {
        List<CycleReport> reports = cycles.all(apps, "shop");
        assertThat(reports).isNotEmpty().allSatisfy(r -> assertThat(r.bundleVersion()).isEqualTo(version));
    }

    private OperatorRuntime runtime(Cycles cycles, String identity) {
        var lease = identity == null ? null
                : new OperatorRuntime.Lease(system, "runbook-operator", identity, TestCluster.LEADER_ELECTION,
                        LeaderElection.leaseClient(client, TestCluster.LEADER_ELECTION));
        var settings = new OperatorRuntime.Settings(List.of(image), Set.of(apps), system, lease);
        OperatorRuntime runtime = new OperatorRuntime(client, settings, Clock.systemUTC(), OperatorMetrics.create(), cycles);
        closing.add(runtime);
        return runtime;
    }

    private String source() {
        return dev.runbook.operator.reload.BundleReloader.source(system, CONFIG_MAP);
    }
}
