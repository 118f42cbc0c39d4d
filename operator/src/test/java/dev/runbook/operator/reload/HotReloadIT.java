package dev.runbook.operator.reload;

import dev.runbook.engine.policy.Isolation;
import dev.runbook.engine.policy.Policy;
import dev.runbook.engine.containment.AllowList;
import dev.runbook.engine.containment.ContainmentLimits;
import dev.runbook.operator.controller.BundleRefusedException;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.operator.testkit.Cycles;
import dev.runbook.operator.testkit.GreeterApps;
import dev.runbook.operator.testkit.GreeterBundles;
import dev.runbook.operator.testkit.ShippedBundles;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import dev.runbook.operator.testkit.NeedsSandbox;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.runbook.operator.testkit.Objects.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Hot reload end to end: bundles shipped as ConfigMaps ({@code runbook pack}'s layout) are vetted and
 * swapped under a running operator, refused ones change nothing. The bundle is
 * src/test/resources/bundles/greeter, edited per test in a copy.
 */
@RunbookIT(crds = {"src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml",
        "src/test/resources/bundles/greeter/crds/greeters.test.runbook.dev.yaml"})
@NeedsSandbox
class HotReloadIT {
    static final Path GREETER = Path.of("src/test/resources/bundles/greeter");
    static final ResourceDefinitionContext WEB_APPS = GreeterBundles.WEB_APPS;
    static final ResourceDefinitionContext GREETERS = GreeterBundles.GREETERS;

    @TempDir
    Path work;

    KubernetesClient client;
    @TestNamespace("system")
    String system;
    @TestNamespace("apps")
    String apps;
    Cycles cycles;
    Reloads reloads;
    RunbookOperator operator;
    BundleReloader reloader;
    ShippedBundles shipped;
    GreeterApps greeted;

    @BeforeEach
    void startOperator() {
        shipped = new ShippedBundles(client, system);
        greeted = new GreeterApps(client, apps);
        cycles = new Cycles();
        reloads = new Reloads();
        operator = RunbookOperator.builder(client).namespaces(Set.of(apps)).listener(cycles).build();
        operator.start();
        reloader = new BundleReloader(client, system, operator, reloads, Clock.systemUTC());
        reloader.start();
    }

    @AfterEach
    void stopOperator() {
        if (reloader != null) reloader.close();
        if (operator != null) operator.close();
    }

    @Test
    void aGoodReloadChangesBehaviourWithoutARestart() {
        shipped.ship("runbook-bundle-greeter", greeter("v1", "hello"));
        await().atMost(TestCluster.CONVERGE).until(() -> reloads.accepted.size() == 1);
        greeted.create(WEB_APPS, "shop");
        greeted.awaitStatus(WEB_APPS, "shop", "greeting", "hello");
        int cyclesBefore = cycles.count(apps, "shop");

        shipped.ship("runbook-bundle-greeter", greeter("v2", "bonjour"));

        // No change to the app: the swap itself re-reconciles it. (The reload is reported after the
        // swap, and may come after the cycle it started: wait for both.)
        greeted.awaitStatus(WEB_APPS, "shop", "greeting", "bonjour");
        await().atMost(TestCluster.CONVERGE).until(() -> reloads.accepted.size() == 2);
        assertThat(reloads.accepted).extracting(RunbookOperator.Installed::change)
                .containsExactly(RunbookOperator.Change.STARTED, RunbookOperator.Change.SWAPPED);
        assertThat(reloads.accepted.get(1).active().generation()).isEqualTo(2);
        // (A cycle's report comes after its writes: wait for it.)
        await().atMost(TestCluster.CONVERGE).until(() -> cycles.count(apps, "shop") > cyclesBefore
                && cycles.last(apps, "shop").decision().firedRules().equals(List.of("Greet bonjour")));
        assertThat(shipped.events("runbook-bundle-greeter")).anySatisfy(e -> {
            assertThat(e.getType()).isEqualTo("Normal");
            assertThat(e.getReason()).isEqualTo("BundleActivated");
            assertThat(e.getMessage()).contains("rules swapped", "generation 2", "1 scenario passed");
        });
    }

    @Test
    void aBundleThatDoesNotCompileIsRefusedAndTheLastGoodOneKeepsRunning() {
        shipped.ship("runbook-bundle-greeter", greeter("v1", "hello"));
        await().atMost(TestCluster.CONVERGE).until(() -> reloads.accepted.size() == 1);
        String good = operator.active(source("runbook-bundle-greeter")).orElseThrow().bundle().version();

        Path broken = greeter("broken", "hello");
        edit(broken.resolve("rules/greet.drl"), "$app : Primary()", "$app : Primary(nmae == \"shop\")");
        shipped.ship("runbook-bundle-greeter", broken);

        await().atMost(TestCluster.CONVERGE).until(() -> reloads.refused.size() == 1);
        assertThat(reloads.refused.get(0).describe()).contains("does not compile", "rules/greet.drl:8:");
        assertThat(shipped.events("runbook-bundle-greeter")).anySatisfy(e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getReason()).isEqualTo("BundleRefused");
            assertThat(e.getMessage()).contains("rules/greet.drl:8:", "the previous version keeps running: bundle greeter@" + good);
        });
        assertThat(operator.active(source("runbook-bundle-greeter")).orElseThrow().bundle().version()).isEqualTo(good);
        greeted.create(WEB_APPS, "after-refusal");
        greeted.awaitStatus(WEB_APPS, "after-refusal", "greeting", "hello");
    }

    @Test
    void aBundleWhoseScenarioFailsIsRefusedNamingTheScenario() {
        shipped.ship("runbook-bundle-greeter", greeter("v1", "hello"));
        greeted.create(WEB_APPS, "shop");
        greeted.awaitStatus(WEB_APPS, "shop", "greeting", "hello");

        Path untested = greeter("untested", "hello");
        edit(untested.resolve("rules/greet.drl"), "\"greeting\", \"hello\"", "\"greeting\", \"salut\"");
        shipped.ship("runbook-bundle-greeter", untested);

        await().atMost(TestCluster.CONVERGE).until(() -> reloads.refused.size() == 1);
        assertThat(reloads.refused.get(0).describe())
                .contains("1 of 1 scenarios failed", "FAIL tests/greet.yaml: every app is greeted");
        // A change to the app runs a cycle, still on the last good bundle.
        greeted.patchCounter(WEB_APPS, "shop", "7");
        greeted.awaitStatus(WEB_APPS, "shop", "seen", "7");
        assertThat((String) at(greeted.get(WEB_APPS, "shop"), "status.greeting")).isEqualTo("hello");
    }

    @Test
    void aNewBundleForANewKindStartsAndOneForATakenKindIsRefused() {
        shipped.ship("runbook-bundle-greeter", greeter("v1", "hello"));
        await().atMost(TestCluster.CONVERGE).until(() -> reloads.accepted.size() == 1);

        Path sameKind = renamed(greeter("twin", "hi"), "greeter-twin");
        shipped.ship("runbook-bundle-twin", sameKind);
        await().atMost(TestCluster.CONVERGE).until(() -> reloads.refused.size() == 1);
        assertThat(reloads.refused.get(0).getMessage())
                .contains("reconciles test.runbook.dev/v1 WebApp", "which bundle greeter already reconciles", source("runbook-bundle-greeter"));

        shipped.ship("runbook-bundle-twin", asGreeterKind(renamed(greeter("twin-greeter", "hi"), "greeter-twin")));
        await().atMost(TestCluster.CONVERGE).until(() -> reloads.accepted.size() == 2);
        assertThat(reloads.accepted.get(1).change()).isEqualTo(RunbookOperator.Change.STARTED);
        greeted.create(GREETERS, "front-door");
        greeted.awaitStatus(GREETERS, "front-door", "greeting", "hi");
        assertThat(operator.bundles()).extracting(b -> b.name()).containsExactly("greeter", "greeter-twin");
    }

    @Test
    void aReloadThatChangesTheKindRebuildsTheController() {
        shipped.ship("runbook-bundle-greeter", greeter("v1", "hello"));
        await().atMost(TestCluster.CONVERGE).until(() -> reloads.accepted.size() == 1);

        shipped.ship("runbook-bundle-greeter", asGreeterKind(greeter("moved", "hello")));
        await().atMost(TestCluster.CONVERGE).until(() -> reloads.accepted.size() == 2);

        assertThat(reloads.accepted.get(1).change()).isEqualTo(RunbookOperator.Change.RESTARTED);
        assertThat(reloads.accepted.get(1).active().generation()).isEqualTo(2);
        greeted.create(GREETERS, "lobby");
        greeted.awaitStatus(GREETERS, "lobby", "greeting", "hello");
    }

    @Test
    void deletingTheConfigMapStopsItsBundle() {
        shipped.ship("runbook-bundle-greeter", greeter("v1", "hello"));
        await().atMost(TestCluster.CONVERGE).until(() -> reloads.accepted.size() == 1);

        client.configMaps().inNamespace(system).withName("runbook-bundle-greeter").delete();

        await().atMost(TestCluster.CONVERGE).until(() -> reloads.removed.size() == 1);
        assertThat(operator.bundles()).isEmpty();
        assertThat(operator.active(source("runbook-bundle-greeter"))).isEmpty();
    }

    /** Starts the operator again as deploy/'s does: with the greeter bundle from its image. */
    private dev.runbook.engine.compile.CompiledBundle restartWithTheImagesGreeter() {
        reloader.close();
        operator.close();
        var image = dev.runbook.engine.compile.BundleCompiler.compile(dev.runbook.engine.bundle.BundleLoader.load(GREETER));
        operator = RunbookOperator.builder(client).bundles(List.of(image)).namespaces(Set.of(apps)).listener(cycles)
                .build();
        operator.start();
        reloader = new BundleReloader(client, system, operator, reloads, Clock.systemUTC());
        reloader.start();
        return image;
    }

    @Test
    void theImagesBundleShippedUnchangedIsReportedActiveThoughNothingIsSwapped() {
        restartWithTheImagesGreeter();
        shipped.ship("runbook-bundle-greeter", GREETER);
        await().atMost(TestCluster.CONVERGE).until(() -> reloads.accepted.size() == 1);
        assertThat(reloads.accepted).singleElement().satisfies(i -> assertThat(i.change()).isEqualTo(RunbookOperator.Change.UNCHANGED));
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(shipped.events("runbook-bundle-greeter")).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("BundleActivated");
            assertThat(e.getMessage()).contains("is active: the same version was already running", "1 scenario passed");
        }));
    }

    @Test
    void aConfigMapOverridesTheImagesBundleOfTheSameNameUntilItIsDeleted() {
        var image = restartWithTheImagesGreeter();
        greeted.create(WEB_APPS, "shop");
        greeted.awaitStatus(WEB_APPS, "shop", "greeting", "hello");

        shipped.ship("runbook-bundle-greeter", greeter("v2", "bonjour"));
        greeted.awaitStatus(WEB_APPS, "shop", "greeting", "bonjour");
        await().atMost(TestCluster.CONVERGE).until(() -> reloads.accepted.size() == 1);
        assertThat(reloads.accepted).singleElement().satisfies(i -> assertThat(i.change()).isEqualTo(RunbookOperator.Change.SWAPPED));
        assertThat(operator.active(GREETER.toString())).isEmpty();

        // Renaming the overriding bundle would leave the image's greeter without a controller: refused.
        shipped.ship("runbook-bundle-greeter", renamed(greeter("renamed", "bonjour"), "greeter-renamed"));
        await().atMost(TestCluster.CONVERGE).until(() -> reloads.refused.size() == 1);
        assertThat(reloads.refused.get(0).getMessage()).contains("it overrides bundle greeter",
                "a new name (greeter-renamed) would leave greeter without a controller");

        client.configMaps().inNamespace(system).withName("runbook-bundle-greeter").delete();
        greeted.awaitStatus(WEB_APPS, "shop", "greeting", "hello");
        assertThat(operator.active(GREETER.toString()).orElseThrow().bundle().version()).isEqualTo(image.version());
        assertThat(operator.bundles()).hasSize(1);
    }

    @Test
    void aConfigMapThatIsNotABundleIsRefusedNamingTheKey() {
        client.configMaps().inNamespace(system).resource(new ConfigMapBuilder()
                .withNewMetadata().withName("runbook-bundle-odd").addToLabels(BundleConfigMaps.LABEL, "odd").endMetadata()
                .addToData("notes.txt", "hello").build()).create();

        await().atMost(TestCluster.CONVERGE).until(() -> reloads.refused.size() == 1);
        assertThat(reloads.refused.get(0).describe()).contains("no key bundle.yaml", "key notes.txt: not a bundle file");
        assertThat(operator.bundles()).isEmpty();
    }

    @Test
    void underContinuousReconcilesASwapLosesNoCycleAndNoneRunsOnAHalfLoadedBundle() {
        shipped.ship("runbook-bundle-greeter", greeter("v1", "hello"));
        await().atMost(TestCluster.CONVERGE).until(() -> reloads.accepted.size() == 1);
        greeted.create(WEB_APPS, "busy");
        greeted.awaitStatus(WEB_APPS, "busy", "greeting", "hello");

        // One writer changes the app as fast as the API server takes it, while a second bundle is shipped.
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger written = new AtomicInteger();
        List<Throwable> writerErrors = new CopyOnWriteArrayList<>();
        Thread writer = new Thread(() -> {
            try {
                while (writing.get()) greeted.patchCounter(WEB_APPS, "busy", Integer.toString(written.incrementAndGet()));
            } catch (Throwable e) {
                writerErrors.add(e);
            }
        }, "writer");
        writer.start();
        await().atMost(TestCluster.CONVERGE).until(() -> written.get() >= 20);
        shipped.ship("runbook-bundle-greeter", greeter("v2", "bonjour"));
        await().atMost(TestCluster.CONVERGE).until(() -> reloads.accepted.size() == 2);
        int atSwap = written.get();
        await().atMost(TestCluster.CONVERGE).until(() -> written.get() >= atSwap + 20);
        writing.set(false);
        await().atMost(TestCluster.CONVERGE).until(() -> !writer.isAlive());
        assertThat(writerErrors).isEmpty();

        // No change is lost: the last one written is the one the status shows, decided by the new bundle.
        String last = Integer.toString(written.get());
        await().atMost(TestCluster.CONVERGE).until(() -> last.equals(at(greeted.get(WEB_APPS, "busy"), "status.seen"))
                && "bonjour".equals(at(greeted.get(WEB_APPS, "busy"), "status.greeting")));
        // Every cycle ran whole on one bundle: the rules that fired are that bundle's, and none failed but
        // for a status write that met the writer's changes three times (a real API server's 409s; the
        // cycle is retried).
        String v1 = reloads.accepted.get(0).active().bundle().version();
        String v2 = reloads.accepted.get(1).active().bundle().version();
        List<CycleReport> all = cycles.all(apps, "busy");
        assertThat(all).allSatisfy(report -> {
            if (report.failure() != null) assertThat(report.failure().reason()).isEqualTo("Conflict");
            assertThat(report.bundleVersion()).isIn(v1, v2);
            assertThat(report.decision().firedRules())
                    .containsExactly(report.bundleVersion().equals(v1) ? "Greet hello" : "Greet bonjour");
        });
        // Once a cycle ran on the new bundle, none ran on the old one again.
        List<String> versions = all.stream().map(CycleReport::bundleVersion).toList();
        int firstNew = versions.indexOf(v2);
        assertThat(firstNew).isPositive();
        assertThat(versions.subList(firstNew, versions.size())).containsOnly(v2);
    }

    @Test
    void aCycleInFlightDuringASwapFinishesOnTheBundleItStartedWith() throws InterruptedException {
        // The gate is test code called from the rules: the administrator's allow-list admits it, and the
        // cycle it holds may wait past the default cycle deadline (docs/security.md). It holds a cycle in
        // this JVM, so ConfigMap bundles run in the operator's process here (the policy's isolation).
        restartWithConfigMapBundlesInProcess();
        String allowed = System.setProperty(AllowList.PROPERTY, CycleGate.class.getName());
        String deadline = System.setProperty(ContainmentLimits.CYCLE_PROPERTY, "5m");
        try {
            swapDuringAHeldCycle();
        } finally {
            restore(AllowList.PROPERTY, allowed);
            restore(ContainmentLimits.CYCLE_PROPERTY, deadline);
        }
    }

    private void restartWithConfigMapBundlesInProcess() {
        reloader.close();
        operator.close();
        Isolation inProcess = new Isolation(Isolation.Trust.IN_PROCESS, Isolation.Trust.IN_PROCESS, Isolation.Worker.SANDBOX,
                null, Isolation.DEFAULT_HEAP_MIB, Isolation.DEFAULT_WORKER_CPU);
        operator = RunbookOperator.builder(client).namespaces(Set.of(apps)).listener(cycles)
                .policy(Policy.DEFAULT.withIsolation(inProcess)).build();
        operator.start();
        reloader = new BundleReloader(client, system, operator, reloads, Clock.systemUTC());
        reloader.start();
    }

    private static void restore(String property, String value) {
        if (value == null) System.clearProperty(property); else System.setProperty(property, value);
    }

    private void swapDuringAHeldCycle() throws InterruptedException {
        shipped.ship("runbook-bundle-greeter", gated(greeter("v1", "hello")));
        await().atMost(TestCluster.CONVERGE).until(() -> reloads.accepted.size() == 1);
        String v1 = reloads.accepted.get(0).active().bundle().version();
        greeted.create(WEB_APPS, "slow");
        // Converged: the last cycle reported changed nothing, so no cycle is in flight or requeued soon.
        await().atMost(TestCluster.CONVERGE).until(() -> {
            CycleReport last = cycles.last(apps, "slow");
            return last != null && last.failure() == null && !last.applied().isEmpty()
                    && last.applied().stream().noneMatch(a -> a.changedSomething());
        });
        int cyclesBefore = cycles.count(apps, "slow");

        // A change starts a cycle, which the gate holds in the middle of its rules.
        CycleGate.arm("slow");
        try {
            greeted.patchCounter(WEB_APPS, "slow", "1");
            assertThat(CycleGate.awaitHeld()).as("a cycle reached the gate").isTrue();
            shipped.ship("runbook-bundle-greeter", gated(greeter("v2", "bonjour")));
            await().atMost(TestCluster.CONVERGE).until(() -> reloads.accepted.size() == 2);
            assertThat(cycles.count(apps, "slow")).as("the held cycle has not finished").isEqualTo(cyclesBefore);
        } finally {
            CycleGate.open();
        }

        // The held cycle finishes on the bundle it started with; the next one runs the new bundle.
        await().atMost(TestCluster.CONVERGE).until(() -> cycles.count(apps, "slow") >= cyclesBefore + 2);
        CycleReport held = cycles.all(apps, "slow").get(cyclesBefore);
        assertThat(held.bundleVersion()).isEqualTo(v1);
        assertThat(held.decision().firedRules()).containsExactly("Greet hello");
        assertThat(held.failure()).isNull();
        CycleReport next = cycles.all(apps, "slow").get(cyclesBefore + 1);
        assertThat(next.bundleVersion()).isEqualTo(reloads.accepted.get(1).active().bundle().version());
        assertThat(next.decision().firedRules()).containsExactly("Greet bonjour");
        greeted.awaitStatus(WEB_APPS, "slow", "greeting", "bonjour");
    }

    // --- helpers ---

    /** The bundle with its rule held by {@link CycleGate} (which lets every other primary pass). */
    private static Path gated(Path bundle) {
        edit(bundle.resolve("rules/greet.drl"), "import dev.runbook.rules.fact.Primary\n",
                "import dev.runbook.rules.fact.Primary\nimport dev.runbook.operator.reload.CycleGate\n");
        edit(bundle.resolve("rules/greet.drl"), "    $app : Primary()\n", "    $app : Primary()\n    eval(CycleGate.pass($app.getName()))\n");
        return bundle;
    }

    /** Records what the reloader reported. */
    static final class Reloads implements ReloadListener {
        final List<RunbookOperator.Installed> accepted = new CopyOnWriteArrayList<>();
        final List<BundleRefusedException> refused = new CopyOnWriteArrayList<>();
        final List<String> refusedNames = new CopyOnWriteArrayList<>();
        final List<String> removed = new CopyOnWriteArrayList<>();

        @Override
        public void accepted(String source, RunbookOperator.Installed installed) { accepted.add(installed); }

        @Override
        public void refused(String source, String bundle, BundleRefusedException refusal) { refused.add(refusal); refusedNames.add(bundle); }

        @Override
        public void removed(String source, RunbookOperator.Installed reverted) { removed.add(source); }
    }

    private String source(String configMap) {
        return BundleReloader.source(system, configMap);
    }

    private Path greeter(String copy, String word) {
        return GreeterBundles.greeter(work, copy, word);
    }

    private static Path renamed(Path bundle, String name) {
        return GreeterBundles.renamed(bundle, name);
    }

    private static Path asGreeterKind(Path bundle) {
        return GreeterBundles.asGreeterKind(bundle);
    }

    private static void edit(Path file, String from, String to) {
        GreeterBundles.edit(file, from, to);
    }
}
