package dev.runbook.testkit.simulation;

import dev.runbook.engine.apply.Outcome;
import dev.runbook.engine.apply.MissingObjectException;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.Apply;
import dev.runbook.rules.action.EmitEvent;
import dev.runbook.rules.action.Requeue;
import dev.runbook.rules.action.SetCondition;
import dev.runbook.rules.action.SetMetadataEntry;
import dev.runbook.rules.fact.ObjectRef;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.runbook.testkit.simulation.Kube.T0;
import static dev.runbook.testkit.simulation.Kube.at;
import static dev.runbook.testkit.simulation.Kube.condition;
import static dev.runbook.testkit.simulation.Kube.configMap;
import static dev.runbook.testkit.simulation.Kube.map;
import static dev.runbook.testkit.simulation.Kube.resourceVersion;
import static dev.runbook.testkit.simulation.Kube.statefulSet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SimulatorTest {
    private final Simulator sim = new Simulator(T0);
    private final ObjectRef db = Simulator.ref("StatefulSet", "prod", "db");
    private final ObjectRef db0 = Simulator.ref("Pod", "prod", "db-0");
    private final ObjectRef db1 = Simulator.ref("Pod", "prod", "db-1");
    private final ObjectRef settings = Simulator.ref("ConfigMap", "prod", "settings");

    private Map<String, Object> get(ObjectRef ref) {
        return sim.get(ref).orElseThrow(() -> new AssertionError(ref + " should exist"));
    }

    private void readyStatefulSet() {
        sim.apply(new Apply(statefulSet("prod", "db", 2, "postgres:16"), null));
        sim.settle();
        sim.advance(Duration.ofSeconds(10));
    }

    // ---- time ----

    @Test
    void timeMovesOnlyByAdvance() {
        assertThat(sim.now()).isEqualTo(T0);
        sim.settle();
        assertThat(sim.now()).isEqualTo(T0);

        sim.advance(Duration.ofSeconds(90));

        assertThat(sim.now()).isEqualTo(T0.plusSeconds(90));
        assertThat(sim.cluster().now()).isEqualTo(T0.plusSeconds(90));
        assertThatThrownBy(() -> sim.advance(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void referencesOfWellKnownKindsCarryTheirApiVersion() {
        assertThat(Simulator.ref("Pod", "prod", "db-0").getApiVersion()).isEqualTo("v1");
        assertThat(Simulator.ref("StatefulSet", "prod", "db").getApiVersion()).isEqualTo("apps/v1");
        assertThat(Simulator.ref("Job", "prod", "b").getApiVersion()).isEqualTo("batch/v1");
        assertThat(Simulator.ref("PostgresCluster", "prod", "main").getApiVersion()).isEmpty();
    }

    // ---- plans ----

    @Test
    void aPlanAppliedTwiceChangesTheClusterOnce() {
        sim.create(map("apiVersion", "db.runbook.dev/v1", "kind", "PostgresCluster",
                "metadata", map("name", "main", "namespace", "prod"), "spec", map("instances", 2)));
        ObjectRef main = Simulator.ref("PostgresCluster", "prod", "main");
        List<Action> plan = List.of(
                new Apply(statefulSet("prod", "db", 2, "postgres:16"), null),
                new SetCondition(main, "Ready", "False", "Creating", "0 of 2"),
                new SetMetadataEntry(main, SetMetadataEntry.Kind.ANNOTATION, "runbook.dev/phase", "creating"),
                new EmitEvent(main, "Normal", "Creating", "creating 2 instances"),
                new Requeue(main, Duration.ofSeconds(30)));

        assertThat(sim.applyPlan(plan)).containsExactly(Outcome.CREATED, Outcome.UPDATED, Outcome.UPDATED, Outcome.CREATED, Outcome.NONE);
        String mainVersion = resourceVersion(get(main));
        String dbVersion = resourceVersion(get(db));
        assertThat(sim.applyPlan(plan)).containsExactly(Outcome.NONE, Outcome.NONE, Outcome.NONE, Outcome.CREATED, Outcome.NONE);
        assertThat(resourceVersion(get(main))).isEqualTo(mainVersion);
        assertThat(resourceVersion(get(db))).isEqualTo(dbVersion);
    }

    @Test
    void anApplyAfterTheControllersWroteStatusIsStillNone() {
        readyStatefulSet();
        String version = resourceVersion(get(db));

        assertThat(sim.apply(new Apply(statefulSet("prod", "db", 2, "postgres:16"), null))).isEqualTo(Outcome.NONE);
        assertThat(resourceVersion(get(db))).isEqualTo(version);
    }

    // ---- pod readiness ----

    @Test
    void podNotReadyTakesEffectAtOnceAndLastsUntilPodReady() {
        readyStatefulSet();
        sim.advance(Duration.ofSeconds(20)); // T0+30s

        sim.podNotReady(db0);

        assertThat(condition(get(db0), "Ready")).containsEntry("status", "False")
                .containsEntry("lastTransitionTime", "2026-03-01T09:00:30Z");
        assertThat(at(get(db0), "status.phase")).isEqualTo("Running");
        assertThat(at(get(db), "status.readyReplicas")).as("the controller sees it at the next settle").isEqualTo(2);
        sim.advance(Duration.ofHours(1));
        assertThat(condition(get(db0), "Ready")).containsEntry("status", "False")
                .containsEntry("lastTransitionTime", "2026-03-01T09:00:30Z");
        assertThat(at(get(db), "status.readyReplicas")).isEqualTo(1);

        sim.podReady(db0);

        assertThat(condition(get(db0), "Ready")).containsEntry("status", "True")
                .containsEntry("lastTransitionTime", "2026-03-01T10:00:30Z");
        sim.settle();
        assertThat(at(get(db), "status.readyReplicas")).isEqualTo(2);
    }

    @Test
    void podReadyMakesANewPodReadyBeforeItsDelay() {
        sim.apply(new Apply(statefulSet("prod", "db", 2, "postgres:16"), null));
        sim.settle();
        sim.advance(Duration.ofSeconds(2));

        sim.podReady(db1);
        sim.settle();

        assertThat(at(get(db1), "status.phase")).isEqualTo("Running");
        assertThat(condition(get(db1), "Ready")).containsEntry("status", "True")
                .containsEntry("lastTransitionTime", "2026-03-01T09:00:02Z");
        assertThat(at(get(db0), "status.phase")).isEqualTo("Pending");
        assertThat(at(get(db), "status.readyReplicas")).isEqualTo(1);
    }

    @Test
    void podNotReadyOnAPendingPodKeepsItNotReadyPastItsDelay() {
        sim.apply(new Apply(statefulSet("prod", "db", 1, "postgres:16"), null));
        sim.settle();

        sim.podNotReady(db0);
        sim.advance(Duration.ofMinutes(1));

        assertThat(at(get(db0), "status.phase")).isEqualTo("Running");
        assertThat(condition(get(db0), "Ready")).containsEntry("status", "False");
    }

    @Test
    void aForcedReadinessDoesNotCarryOverToTheRecreatedPod() {
        readyStatefulSet();
        sim.podNotReady(db0);

        sim.deletePod(db0);
        sim.settle();
        sim.advance(Duration.ofSeconds(10));

        assertThat(condition(get(db0), "Ready")).containsEntry("status", "True");
    }

    @Test
    void aPodWithoutAStatefulSetAlsoBecomesReady() {
        sim.create(map("apiVersion", "v1", "kind", "Pod", "metadata", map("name", "solo", "namespace", "prod"),
                "spec", map()));
        sim.advance(Duration.ofSeconds(10));

        assertThat(condition(get(Simulator.ref("Pod", "prod", "solo")), "Ready")).containsEntry("status", "True");
    }

    @Test
    void aPodGivenRunningOrWithAReadyConditionIsLeftAsItIs() {
        sim.create(map("apiVersion", "v1", "kind", "Pod", "metadata", map("name", "given-ready", "namespace", "prod"),
                "status", map("conditions", Kube.list(map("type", "Ready", "status", "True",
                        "lastTransitionTime", "2026-03-01T08:00:00Z")))));
        sim.create(map("apiVersion", "v1", "kind", "Pod", "metadata", map("name", "given-unready", "namespace", "prod"),
                "status", map("phase", "Running", "conditions", Kube.list(map("type", "Ready", "status", "False",
                        "lastTransitionTime", "2026-03-01T08:58:30Z")))));
        sim.create(map("apiVersion", "v1", "kind", "Pod", "metadata", map("name", "given-running", "namespace", "prod"),
                "status", map("phase", "Running")));
        List<Map<String, Object>> before = sim.cluster().list();

        sim.settle();
        sim.advance(Duration.ofHours(1));

        assertThat(sim.cluster().list()).isEqualTo(before);
    }

    @Test
    void aPendingPodOlderThanTheDelayIsReadyAtTheNextSettle() {
        sim.create(map("apiVersion", "v1", "kind", "Pod",
                "metadata", map("name", "old", "namespace", "prod", "creationTimestamp", "2026-03-01T08:00:00Z"),
                "status", map("phase", "Pending")));

        sim.settle();

        Map<String, Object> pod = get(Simulator.ref("Pod", "prod", "old"));
        assertThat(at(pod, "status.phase")).isEqualTo("Running");
        assertThat(condition(pod, "Ready")).containsEntry("status", "True").containsEntry("lastTransitionTime", "2026-03-01T08:00:10Z");
    }

    @Test
    void aFinishedPodIsNotReadyAndCannotBeMadeReady() {
        ObjectRef done = Simulator.ref("Pod", "prod", "done");
        sim.create(map("apiVersion", "v1", "kind", "Pod", "metadata", map("name", "done", "namespace", "prod"),
                "status", map("phase", "Running", "conditions", Kube.list(map("type", "Ready", "status", "True")))));
        sim.setField(done, "status.phase", "Succeeded");

        sim.settle();

        assertThat(at(get(done), "status.phase")).isEqualTo("Succeeded");
        assertThat(condition(get(done), "Ready")).containsEntry("status", "False")
                .containsEntry("lastTransitionTime", "2026-03-01T09:00:00Z");
        assertThatThrownBy(() -> sim.podReady(done))
                .isInstanceOf(IllegalStateException.class).hasMessage("podReady: Pod prod/done has finished (phase Succeeded)");
    }

    @Test
    void readinessChangesNeedAnExistingPod() {
        assertThatThrownBy(() -> sim.podNotReady(db0))
                .isInstanceOf(MissingObjectException.class).hasMessage("podNotReady: Pod prod/db-0 does not exist");
        assertThatThrownBy(() -> sim.podReady(db))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("podReady needs a Pod, not StatefulSet prod/db");
        assertThatThrownBy(() -> sim.deletePod(db)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> sim.deletePod(db0)).isInstanceOf(MissingObjectException.class);
    }

    // ---- other world changes ----

    @Test
    void annotateAndLabelSetAndRemoveEntries() {
        sim.create(configMap("prod", "settings", map()));

        sim.annotate(settings, "postgres.runbook.dev/replayed-lsn", "1200");
        sim.label(settings, "postgres.runbook.dev/role", "primary");
        assertThat(at(get(settings), "metadata.annotations")).isEqualTo(map("postgres.runbook.dev/replayed-lsn", "1200"));
        assertThat(at(get(settings), "metadata.labels")).isEqualTo(map("postgres.runbook.dev/role", "primary"));
        String version = resourceVersion(get(settings));
        sim.label(settings, "postgres.runbook.dev/role", "primary");
        assertThat(resourceVersion(get(settings))).as("setting the same value changes nothing").isEqualTo(version);

        sim.annotate(settings, "postgres.runbook.dev/replayed-lsn", null);
        sim.label(settings, "postgres.runbook.dev/role", null);
        assertThat((Map<String, Object>) get(settings).get("metadata")).doesNotContainKeys("labels", "annotations");
    }

    @Test
    void setFieldWritesADottedPathCreatingMapsAndNullRemoves() {
        sim.create(configMap("prod", "settings", map("a", "1")));

        sim.setField(settings, "status.backup.last", "b-7");
        sim.setField(settings, "data.a", null);
        sim.setField(settings, "spec.containers", Kube.list(map("image", "x")));
        sim.setField(settings, "spec.containers[0].image", "y");

        assertThat(at(get(settings), "status.backup.last")).isEqualTo("b-7");
        assertThat(at(get(settings), "data")).isEqualTo(map());
        assertThat(at(get(settings), "spec.containers[0].image")).isEqualTo("y");
        assertThat(at(get(settings), "metadata.generation")).as("1, then data, containers, image; not status").isEqualTo(4L);
    }

    @Test
    void setFieldCannotChangeIdentityOrServerFields() {
        sim.create(configMap("prod", "settings", map()));

        for (String path : List.of("metadata.name", "kind", "metadata.uid", "metadata.resourceVersion", "metadata.namespace")) {
            assertThatThrownBy(() -> sim.setField(settings, path, "x"))
                    .as(path).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(path);
        }
        assertThatThrownBy(() -> sim.setField(Simulator.ref("ConfigMap", "prod", "nope"), "data.a", "1"))
                .isInstanceOf(MissingObjectException.class).hasMessageContaining("ConfigMap prod/nope");
    }

    @Test
    void setFieldOnAStatefulSetIsSeenByItsController() {
        readyStatefulSet();

        sim.setField(db, "spec.replicas", 3);
        sim.settle();

        assertThat(sim.cluster().list("Pod")).hasSize(3);
    }

    @Test
    void createRefusesAnExistingObjectAndDeleteAMissingOne() {
        sim.create(configMap("prod", "settings", map()));

        assertThatThrownBy(() -> sim.create(configMap("prod", "settings", map())))
                .isInstanceOf(IllegalStateException.class).hasMessage("create: ConfigMap prod/settings already exists");
        sim.delete(settings);
        assertThat(sim.get(settings)).isEmpty();
        assertThatThrownBy(() -> sim.delete(settings))
                .isInstanceOf(MissingObjectException.class).hasMessage("delete: ConfigMap prod/settings does not exist");
    }

    // ---- copies, determinism, the Cluster interface ----

    @Test
    void whatASimulatorReturnsIsACopy() {
        readyStatefulSet();
        Map<String, Object> pod = get(db0);
        ((Map<String, Object>) pod.get("status")).put("phase", "Tampered");
        sim.cluster().list().forEach(o -> o.put("kind", "Tampered"));
        sim.events().forEach(e -> e.put("reason", "Tampered"));

        assertThat(at(get(db0), "status.phase")).isEqualTo("Running");
        assertThat(sim.cluster().list()).noneMatch(o -> "Tampered".equals(o.get("kind")));
        assertThat(sim.events()).noneMatch(e -> "Tampered".equals(e.get("reason")));
    }

    @Test
    void theSameScenarioGivesTheSameClusterEveryTime() {
        assertThat(scenario()).isEqualTo(scenario());
    }

    private List<Map<String, Object>> scenario() {
        Simulator run = new Simulator(T0);
        run.apply(new Apply(statefulSet("prod", "db", 3, "postgres:16"), null));
        run.advance(Duration.ofSeconds(1));
        run.advance(Duration.ofSeconds(10));
        run.podNotReady(db1);
        run.setField(db, "spec.template.spec.containers[0].image", "postgres:17");
        run.advance(Duration.ofSeconds(10));
        run.podReady(db1);
        run.advance(Duration.ofSeconds(30));
        List<Map<String, Object>> state = new ArrayList<>(run.cluster().list());
        state.addAll(run.events());
        return state;
    }

    @Test
    void theControllersUseOnlyTheClusterInterface() {
        InMemoryCluster store = new InMemoryCluster(T0);
        List<String> calls = new ArrayList<>();
        Cluster recording = new Cluster() {
            public Instant now() { return store.now(); }
            public Optional<Map<String, Object>> get(ObjectRef ref) { calls.add("get"); return store.get(ref); }
            public List<Map<String, Object>> list() { calls.add("list"); return store.list(); }
            public List<Map<String, Object>> list(String kind) { calls.add("list " + kind); return store.list(kind); }
            public void put(Map<String, Object> object) { calls.add("put " + object.get("kind")); store.put(object); }
            public boolean delete(ObjectRef ref) { calls.add("delete"); return store.delete(ref); }
            public List<Map<String, Object>> events() { return store.events(); }
            public void recordEvent(ObjectRef involved, String type, String reason, String message, String component) {
                calls.add("event " + reason);
                store.recordEvent(involved, type, reason, message, component);
            }
        };
        new ActionApplier(recording).apply(new Apply(statefulSet("prod", "db", 1, "postgres:16"), null));

        new SimulatedControllers(recording, Duration.ZERO).settle(T0);

        assertThat(calls).contains("put StatefulSet", "put Pod", "event SuccessfulCreate", "list StatefulSet", "list Pod");
        assertThat(condition(store.get(db0).orElseThrow(), "Ready")).containsEntry("status", "True");
        assertThatThrownBy(() -> new SimulatedControllers(recording, Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
