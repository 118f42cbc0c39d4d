package dev.runbook.operator.record;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.act.PrimaryStatus;
import dev.runbook.operator.cycle.CycleListener;
import dev.runbook.operator.error.Reasons;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.kube.Maps;
import dev.runbook.operator.testkit.CountingClient;
import dev.runbook.operator.testkit.Cycles;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import dev.runbook.rules.action.SetCondition;
import dev.runbook.rules.action.SetStatus;
import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Primary;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.runbook.operator.testkit.Objects.at;
import static dev.runbook.operator.testkit.Objects.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The primary's status is written at most once per cycle: the plan's own status actions and the record
 * phase's fields go out in one merge patch, counted on the operator's own client, and a cycle that
 * found everything in place after one that applied the plan writes none. So is the cycle's event: one
 * for all the actions that changed something besides the primary's own status ({@link ChangesEvent}).
 */
@RunbookIT(crds = "src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml")
class StatusOncePerCycleIT {
    static final Path BUNDLE = Path.of("src/test/resources/bundles/web-app");

    static TestCluster cluster;
    static CompiledBundle bundle;
    static KubeApi api;
    @TestNamespace("status")
    String namespace;

    @BeforeAll
    static void compileBundle() {
        bundle = BundleCompiler.compile(BundleLoader.load(BUNDLE));
        api = new KubeApi(cluster.client());
        api.register(new PrimaryKind(new Kind("test.runbook.dev/v1", "WebApp"), "webapps", true));
    }

    /** Per cycle: how many writes went to the primary's status subresource and to events, and the cycle's report. */
    record StatusWrites(int writes, int eventWrites, CycleReport report) {}

    @Test
    void aCycleThatChangesTheStatusWritesItOnce() {
        List<StatusWrites> cycles = new CopyOnWriteArrayList<>();
        CountingClient counting = new CountingClient(cluster);
        String statusPath = "/webapps/shop/status";
        CycleListener listener = new CycleListener() {
            @Override
            public void cycleRecorded(Primary primary, CycleReport report) {
                List<String> requests = counting.drain();
                int writes = (int) requests.stream()
                        .filter(request -> request.startsWith("PATCH ") && request.endsWith(statusPath)).count();
                int eventWrites = (int) requests.stream().filter(request -> !request.startsWith("GET ")
                        && request.contains("/namespaces/" + namespace + "/events")).count();
                cycles.add(new StatusWrites(writes, eventWrites, report));
            }
        };
        try (KubernetesClient client = counting.client();
             RunbookOperator operator = RunbookOperator.builder(client).bundles(List.of(bundle))
                     .namespaces(Set.of(namespace)).listener(listener).build()) {
            operator.start();
            Map<String, Object> app = create();
            ObjectRef shop = Maps.refOf(app);

            await().atMost(TestCluster.CONVERGE).until(() -> "Serving".equals(at(status(app), "status.phase")));
            // Converged: a cycle whose every action came out NONE.
            await().atMost(TestCluster.CONVERGE).until(() -> cycles.stream().anyMatch(c -> !c.report().applied().isEmpty()
                    && c.report().applied().stream().noneMatch(a -> a.changedSomething())));

            assertThat(cycles).allSatisfy(c -> assertThat(c.writes()).as("status writes of one cycle").isLessThanOrEqualTo(1));
            StatusWrites first = cycles.get(0);
            assertThat(first.report().applied()).as("the first cycle's status actions on the primary")
                    .filteredOn(a -> a.planned().action() instanceof SetStatus || a.planned().action() instanceof SetCondition)
                    .hasSizeGreaterThanOrEqualTo(2)
                    .allSatisfy(a -> assertThat(a.changedSomething()).isTrue());
            assertThat(first.writes()).isEqualTo(1);
            assertThat(first.report().applied()).as("the first cycle's changes").filteredOn(a -> a.changedSomething())
                    .hasSizeGreaterThanOrEqualTo(3);
            assertThat(first.eventWrites()).as("one event for the first cycle's changes").isEqualTo(1);
            assertThat(cycles).allSatisfy(c -> assertThat(c.eventWrites()).as("event writes of one cycle")
                    .isEqualTo(c.report().applied().stream().anyMatch(a -> a.changedSomething()
                            && !PrimaryStatus.isStatusOf(shop, a.planned().action())) ? 1 : 0));
            // A cycle that found everything in place after one that applied the plan writes no status.
            assertThat(cycles).filteredOn(c -> c.report().settled()).as("settled cycles").isNotEmpty()
                    .allSatisfy(c -> assertThat(c.writes()).as("status writes of a settled cycle").isZero());
            Map<String, Object> written = status(app);
            assertThat(condition(written, "Ready")).containsEntry("status", "True");
            assertThat(condition(written, RunbookCondition.TYPE)).containsEntry("status", "True");
            assertThat((Object) at(written, "status.credentials")).isEqualTo(0);
            assertThat((Object) at(written, "status.replicas")).isEqualTo(1);
        }
    }

    @Test
    void aStatusTheServerRefusesFailsItsActionsAndTheCycleIsStillRecorded() {
        assumeTrue(cluster.isMock(), "the refusal is injected through the mock server");
        cluster.failNext("PATCH", "/apis/test.runbook.dev/v1/namespaces/" + namespace
                + "/webapps/shop/status?fieldManager=runbook-web-app", 422, 1);
        Cycles cycles = new Cycles();
        try (RunbookOperator operator = RunbookOperator.builder(cluster.client()).bundles(List.of(bundle))
                .namespaces(Set.of(namespace)).listener(cycles).build()) {
            operator.start();
            create();

            await().atMost(TestCluster.CONVERGE).until(() -> cycles.count(namespace, "shop") >= 1);
            CycleReport first = cycles.all(namespace, "shop").get(0);
            assertThat(first.failure().reason()).isEqualTo(Reasons.ACTION_FAILED);
            assertThat(first.failure().message()).contains("the status write of setCondition WebApp " + namespace + "/shop Ready")
                    .contains("injected by the test");
            assertThat(first.failure().rules()).contains("Replicas are recorded");
            assertThat(first.applied()).as("the refused status actions are not reported as applied")
                    .noneMatch(a -> a.planned().action() instanceof SetStatus || a.planned().action() instanceof SetCondition);
            // Recorded all the same: the failure's Warning event on the primary.
            await().atMost(TestCluster.CONVERGE).until(() -> cluster.client().v1().events().inNamespace(namespace).list().getItems()
                    .stream().anyMatch(e -> "Warning".equals(e.getType()) && Reasons.ACTION_FAILED.equals(e.getReason())));
        }
    }

    private Map<String, Object> create() {
        return api.create(Map.of("apiVersion", "test.runbook.dev/v1", "kind", "WebApp",
                "metadata", Map.of("name", "shop", "namespace", namespace), "spec", Map.of("greeting", "hi")));
    }

    private Map<String, Object> status(Map<String, Object> app) {
        return api.get(Maps.refOf(app)).orElseThrow();
    }
}
