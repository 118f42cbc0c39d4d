package dev.runbook.testkit.simulation;

import dev.runbook.engine.apply.Outcome;
import dev.runbook.rules.action.Apply;
import dev.runbook.rules.action.MergePatch;
import dev.runbook.rules.fact.ObjectRef;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.runbook.testkit.simulation.Kube.T0;
import static dev.runbook.testkit.simulation.Kube.at;
import static dev.runbook.testkit.simulation.Kube.condition;
import static dev.runbook.testkit.simulation.Kube.list;
import static dev.runbook.testkit.simulation.Kube.map;
import static dev.runbook.testkit.simulation.Kube.statefulSet;
import static org.assertj.core.api.Assertions.assertThat;

class StatefulSetControllerTest {
    private final Simulator sim = new Simulator(T0);
    private final ObjectRef db = Simulator.ref("StatefulSet", "prod", "db");

    private static ObjectRef pod(String name) {
        return Simulator.ref("Pod", "prod", name);
    }

    private Map<String, Object> get(ObjectRef ref) {
        return sim.get(ref).orElseThrow(() -> new AssertionError(ref + " should exist"));
    }

    private List<String> podNames() {
        return sim.cluster().list("Pod").stream().map(p -> (String) at(p, "metadata.name")).toList();
    }

    private List<String> controllerEvents() {
        return sim.events().stream()
                .filter(e -> SimulatedControllers.STATEFULSET_CONTROLLER.equals(at(e, "source.component")))
                .map(e -> (String) e.get("message")).toList();
    }

    private void createReadyStatefulSet(int replicas) {
        assertThat(sim.apply(new Apply(statefulSet("prod", "db", replicas, "postgres:16"), null))).isEqualTo(Outcome.CREATED);
        sim.settle();                        // the pods are created at T0
        sim.advance(Duration.ofSeconds(10)); // and ready at T0+10s
    }

    private void changeImage(String image) {
        assertThat(sim.apply(new MergePatch(db, map("spec", map("template", map("spec",
                map("containers", list(map("name", "main", "image", image))))))))).isEqualTo(Outcome.UPDATED);
    }

    @Test
    void createsOnePodPerOrdinalFromTheTemplate() {
        sim.apply(new Apply(statefulSet("prod", "db", 3, "postgres:16"), null));
        assertThat(podNames()).as("nothing happens before the controllers settle").isEmpty();

        sim.settle();

        assertThat(podNames()).containsExactly("db-0", "db-1", "db-2");
        assertThat(controllerEvents()).containsExactly(
                "create Pod db-0 in StatefulSet db successful",
                "create Pod db-1 in StatefulSet db successful",
                "create Pod db-2 in StatefulSet db successful");
        Map<String, Object> set = get(db);
        Map<String, Object> pod = get(pod("db-1"));
        String revision = (String) at(set, "status.updateRevision");
        assertThat(revision).matches("db-[0-9a-f]{10}");
        assertThat(at(pod, "metadata.labels")).isEqualTo(map("app", "db",
                SimulatedControllers.REVISION_LABEL, revision,
                SimulatedControllers.POD_NAME_LABEL, "db-1",
                SimulatedControllers.POD_INDEX_LABEL, "1"));
        assertThat(at(pod, "metadata.annotations")).isEqualTo(map("team", "db"));
        assertThat(at(pod, "metadata.ownerReferences")).isEqualTo(list(map("apiVersion", "apps/v1", "kind", "StatefulSet",
                "name", "db", "uid", at(set, "metadata.uid"), "controller", true, "blockOwnerDeletion", true)));
        assertThat(at(pod, "spec.containers[0].image")).isEqualTo("postgres:16");
        assertThat(at(pod, "spec.hostname")).isEqualTo("db-1");
        assertThat(at(pod, "spec.subdomain")).isEqualTo("db");
    }

    @Test
    void podsBecomeRunningAndReadyAfterTheDelayMeasuredFromCreation() {
        sim.apply(new Apply(statefulSet("prod", "db", 2, "postgres:16"), null));
        sim.advance(Duration.ofSeconds(4)); // pods are created now, at T0+4s

        assertThat(at(get(pod("db-0")), "status.phase")).isEqualTo("Pending");
        assertThat(condition(get(pod("db-0")), "Ready")).isEqualTo(map("type", "Ready", "status", "False",
                "lastTransitionTime", "2026-03-01T09:00:04Z"));
        assertThat(at(get(db), "status.readyReplicas")).isEqualTo(0);

        sim.advance(Duration.ofSeconds(9)); // T0+13s: 9s old
        assertThat(at(get(pod("db-0")), "status.phase")).isEqualTo("Pending");

        sim.advance(Duration.ofSeconds(30)); // T0+43s: became ready at T0+14s
        assertThat(at(get(pod("db-0")), "status.phase")).isEqualTo("Running");
        assertThat(condition(get(pod("db-0")), "Ready")).containsEntry("status", "True")
                .containsEntry("lastTransitionTime", "2026-03-01T09:00:14Z");
        assertThat(at(get(db), "status.readyReplicas")).isEqualTo(2);
    }

    @Test
    void theReadinessDelayIsAConstructorParameter() {
        Simulator quick = new Simulator(T0, Duration.ZERO);
        quick.apply(new Apply(statefulSet("prod", "db", 1, "postgres:16"), null));

        quick.settle();

        assertThat(quick.controllers().readyAfter()).isZero();
        assertThat(condition(quick.get(pod("db-0")).orElseThrow(), "Ready")).containsEntry("status", "True")
                .containsEntry("lastTransitionTime", "2026-03-01T09:00:00Z");
        assertThat(new Simulator(T0).controllers().readyAfter()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void writesStatusLikeTheRealController() {
        createReadyStatefulSet(3);

        Map<String, Object> status = (Map<String, Object>) at(get(db), "status");
        assertThat(status).containsEntry("observedGeneration", 1L).containsEntry("replicas", 3)
                .containsEntry("readyReplicas", 3).containsEntry("currentReplicas", 3)
                .containsEntry("updatedReplicas", 3).containsEntry("availableReplicas", 3);
        assertThat(status.get("currentRevision")).isEqualTo(status.get("updateRevision"));
    }

    @Test
    void aSettleWithNothingToDoChangesNothing() {
        createReadyStatefulSet(2);
        List<Map<String, Object>> before = sim.cluster().list();
        int events = sim.events().size();

        sim.settle();
        sim.advance(Duration.ofMinutes(5));

        assertThat(sim.cluster().list()).isEqualTo(before);
        assertThat(sim.events()).hasSize(events);
    }

    @Test
    void scalesDownHighestOrdinalFirst() {
        createReadyStatefulSet(4);

        sim.apply(new MergePatch(db, map("spec", map("replicas", 1))));
        sim.settle();

        assertThat(podNames()).containsExactly("db-0");
        assertThat(controllerEvents()).endsWith(
                "delete Pod db-3 in StatefulSet db successful",
                "delete Pod db-2 in StatefulSet db successful",
                "delete Pod db-1 in StatefulSet db successful");
        assertThat(at(get(db), "status.replicas")).isEqualTo(1);
        assertThat(at(get(db), "status.observedGeneration")).isEqualTo(2L);
    }

    @Test
    void scalesUpByAddingTheMissingOrdinals() {
        createReadyStatefulSet(1);
        Object uid = at(get(pod("db-0")), "metadata.uid");

        sim.apply(new MergePatch(db, map("spec", map("replicas", 3))));
        sim.settle();

        assertThat(podNames()).containsExactly("db-0", "db-1", "db-2");
        assertThat(at(get(pod("db-0")), "metadata.uid")).isEqualTo(uid);
        assertThat(at(get(db), "status.readyReplicas")).isEqualTo(1);
    }

    @Test
    void aTemplateChangeRollsOnePodAtATimeFromTheHighestOrdinalWaitingForReadiness() {
        createReadyStatefulSet(3);
        String oldRevision = (String) at(get(db), "status.currentRevision");
        int eventsBefore = controllerEvents().size();

        changeImage("postgres:17");
        sim.settle();

        String newRevision = (String) at(get(db), "status.updateRevision");
        assertThat(newRevision).isNotEqualTo(oldRevision);
        assertThat(images()).containsExactly("postgres:16", "postgres:16", "postgres:17");
        assertThat(at(get(pod("db-2")), "metadata.labels." + SimulatedControllers.REVISION_LABEL)).isEqualTo(newRevision);
        assertThat(at(get(db), "status.currentRevision")).isEqualTo(oldRevision);
        assertThat(at(get(db), "status.updatedReplicas")).isEqualTo(1);
        assertThat(at(get(db), "status.currentReplicas")).isEqualTo(2);

        sim.advance(Duration.ofSeconds(9)); // db-2 is not ready yet: nothing else moves
        assertThat(images()).containsExactly("postgres:16", "postgres:16", "postgres:17");

        sim.advance(Duration.ofSeconds(1)); // db-2 ready: db-1 goes
        assertThat(images()).containsExactly("postgres:16", "postgres:17", "postgres:17");

        sim.advance(Duration.ofSeconds(10));
        assertThat(images()).containsExactly("postgres:17", "postgres:17", "postgres:17");
        assertThat(at(get(db), "status.currentRevision")).as("until the last pod is ready").isEqualTo(oldRevision);

        sim.advance(Duration.ofSeconds(10));
        assertThat(at(get(db), "status.currentRevision")).isEqualTo(newRevision);
        assertThat(at(get(db), "status.currentReplicas")).isEqualTo(3);
        assertThat(at(get(db), "status.readyReplicas")).isEqualTo(3);
        assertThat(controllerEvents().subList(eventsBefore, controllerEvents().size())).containsExactly(
                "delete Pod db-2 in StatefulSet db successful", "create Pod db-2 in StatefulSet db successful",
                "delete Pod db-1 in StatefulSet db successful", "create Pod db-1 in StatefulSet db successful",
                "delete Pod db-0 in StatefulSet db successful", "create Pod db-0 in StatefulSet db successful");
    }

    @Test
    void aRollingUpdateWaitsWhileAnotherPodIsNotReady() {
        createReadyStatefulSet(3);
        sim.podNotReady(pod("db-0"));

        changeImage("postgres:17");
        sim.advance(Duration.ofMinutes(1));
        assertThat(images()).containsExactly("postgres:16", "postgres:16", "postgres:16");

        sim.podReady(pod("db-0"));
        sim.settle();
        assertThat(images()).containsExactly("postgres:16", "postgres:16", "postgres:17");
    }

    @Test
    void aPartitionKeepsTheLowerOrdinalsOnTheOldTemplate() {
        Map<String, Object> set = statefulSet("prod", "db", 3, "postgres:16");
        ((Map<String, Object>) set.get("spec")).put("updateStrategy",
                map("type", "RollingUpdate", "rollingUpdate", map("partition", 2)));
        sim.apply(new Apply(set, null));
        sim.settle();
        sim.advance(Duration.ofSeconds(10));

        changeImage("postgres:17");
        sim.advance(Duration.ofSeconds(10));
        sim.advance(Duration.ofSeconds(10));

        assertThat(images()).containsExactly("postgres:16", "postgres:16", "postgres:17");
    }

    @Test
    void onDeleteReplacesOnlyPodsThatAreDeleted() {
        Map<String, Object> set = statefulSet("prod", "db", 2, "postgres:16");
        ((Map<String, Object>) set.get("spec")).put("updateStrategy", map("type", "OnDelete"));
        sim.apply(new Apply(set, null));
        sim.settle();
        sim.advance(Duration.ofSeconds(10));

        changeImage("postgres:17");
        sim.advance(Duration.ofMinutes(1));
        assertThat(images()).containsExactly("postgres:16", "postgres:16");

        sim.deletePod(pod("db-0"));
        sim.settle();
        assertThat(images()).containsExactly("postgres:17", "postgres:16");
    }

    @Test
    void aFailedPodIsDeletedAndCreatedAgain() {
        createReadyStatefulSet(2);
        Object uid = at(get(pod("db-1")), "metadata.uid");

        sim.setField(pod("db-1"), "status.phase", "Failed");
        sim.settle();

        assertThat(at(get(pod("db-1")), "metadata.uid")).isNotEqualTo(uid);
        assertThat(at(get(pod("db-1")), "status.phase")).isEqualTo("Pending");
        assertThat(sim.events()).anySatisfy(e -> assertThat(e.get("reason")).isEqualTo("RecreatingFailedPod"));
    }

    @Test
    void aDeletedPodIsCreatedAgainAndItsReadinessDelayStartsAgain() {
        createReadyStatefulSet(2);
        Object uid = at(get(pod("db-0")), "metadata.uid");
        sim.advance(Duration.ofSeconds(20)); // T0+30s
        assertThat(sim.now()).isEqualTo(T0.plusSeconds(30));

        sim.deletePod(pod("db-0"));
        assertThat(sim.get(pod("db-0"))).as("gone until the next settle").isEmpty();
        sim.settle();

        Map<String, Object> recreated = get(pod("db-0"));
        assertThat(at(recreated, "metadata.uid")).isNotEqualTo(uid);
        assertThat(at(recreated, "metadata.creationTimestamp")).isEqualTo("2026-03-01T09:00:30Z");
        assertThat(condition(recreated, "Ready")).containsEntry("status", "False");
        assertThat(at(get(db), "status.readyReplicas")).isEqualTo(1);

        sim.advance(Duration.ofSeconds(10));
        assertThat(condition(get(pod("db-0")), "Ready")).containsEntry("status", "True")
                .containsEntry("lastTransitionTime", "2026-03-01T09:00:40Z");
        assertThat(at(get(db), "status.readyReplicas")).isEqualTo(2);
    }

    @Test
    void deletingTheStatefulSetCollectsItsPods() {
        createReadyStatefulSet(3);

        sim.delete(db);
        sim.settle();

        assertThat(podNames()).isEmpty();
    }

    @Test
    void aPodOfTheSameNameThatTheStatefulSetDoesNotControlIsLeftAlone() {
        sim.create(map("apiVersion", "v1", "kind", "Pod", "metadata", map("name", "db-0", "namespace", "prod"),
                "spec", map("containers", list(map("name", "other", "image", "busybox")))));
        sim.apply(new Apply(statefulSet("prod", "db", 2, "postgres:16"), null));

        sim.settle();

        assertThat(images()).containsExactly("busybox", "postgres:16");
        assertThat(at(get(db), "status.replicas")).isEqualTo(1);
    }

    @Test
    void adoptsHandWrittenPodsThatMatchItsSelectorWithoutReplacingThem() {
        for (String name : List.of("db-0", "db-1", "db-7x", "other-0")) {
            sim.create(map("apiVersion", "v1", "kind", "Pod", "metadata", map("name", name, "namespace", "prod",
                            "labels", map("app", "db", "role", name.equals("db-0") ? "primary" : "replica")),
                    "spec", map("containers", list(map("name", "main", "image", "postgres:16"))),
                    "status", map("phase", "Running", "conditions", list(map("type", "Ready", "status", "True",
                            "lastTransitionTime", "2026-03-01T08:00:00Z")))));
        }
        sim.create(map("apiVersion", "v1", "kind", "Pod", "metadata", map("name", "db-2", "namespace", "prod",
                "labels", map("app", "not-db")), "spec", map()));
        Object uid = at(get(pod("db-0")), "metadata.uid");
        sim.create(statefulSet("prod", "db", 2, "postgres:16"));

        sim.settle();

        Map<String, Object> set = get(db);
        assertThat(podNames()).containsExactly("db-0", "db-1", "db-2", "db-7x", "other-0");
        assertThat(at(get(pod("db-0")), "metadata.uid")).isEqualTo(uid);
        assertThat(at(get(pod("db-0")), "metadata.ownerReferences[0].uid")).isEqualTo(at(set, "metadata.uid"));
        assertThat(at(get(pod("db-1")), "metadata.labels")).isEqualTo(map("app", "db", "role", "replica",
                SimulatedControllers.REVISION_LABEL, at(set, "status.updateRevision")));
        assertThat(at(get(pod("db-2")), "metadata.ownerReferences")).as("labels do not match").isNull();
        assertThat(at(get(pod("db-7x")), "metadata.ownerReferences")).as("no ordinal").isNull();
        assertThat(at(get(pod("other-0")), "metadata.ownerReferences")).isNull();
        assertThat(at(set, "status.replicas")).isEqualTo(2);
        assertThat(at(set, "status.readyReplicas")).isEqualTo(2);
        assertThat(controllerEvents()).isEmpty();

        changeImage("postgres:17");
        sim.settle();
        assertThat(at(get(pod("db-1")), "spec.containers[0].image")).isEqualTo("postgres:17");
        assertThat(at(get(pod("db-0")), "spec.containers[0].image")).isEqualTo("postgres:16");
    }

    private List<Object> images() {
        return sim.cluster().list("Pod").stream().map(p -> at(p, "spec.containers[0].image")).toList();
    }
}
