package dev.runbook.testkit.simulation;

import dev.runbook.engine.apply.Outcome;
import dev.runbook.engine.apply.MissingObjectException;
import dev.runbook.rules.action.Apply;
import dev.runbook.rules.fact.ObjectRef;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.runbook.testkit.simulation.Kube.T0;
import static dev.runbook.testkit.simulation.Kube.at;
import static dev.runbook.testkit.simulation.Kube.condition;
import static dev.runbook.testkit.simulation.Kube.configMap;
import static dev.runbook.testkit.simulation.Kube.job;
import static dev.runbook.testkit.simulation.Kube.list;
import static dev.runbook.testkit.simulation.Kube.map;
import static dev.runbook.testkit.simulation.Kube.ownedBy;
import static dev.runbook.testkit.simulation.Kube.resourceVersion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JobAndGarbageCollectionTest {
    private final Simulator sim = new Simulator(T0);
    private final ObjectRef backup = Simulator.ref("Job", "prod", "backup");

    private Map<String, Object> get(ObjectRef ref) {
        return sim.get(ref).orElseThrow(() -> new AssertionError(ref + " should exist"));
    }

    private void startBackup() {
        sim.advance(Duration.ofSeconds(5));
        assertThat(sim.apply(new Apply(job("prod", "backup"), null))).isEqualTo(Outcome.CREATED);
        sim.advance(Duration.ofMinutes(10));
    }

    // ---- jobs ----

    @Test
    void aJobStaysActiveUntilTheTestDecides() {
        startBackup();

        Map<String, Object> status = (Map<String, Object>) at(get(backup), "status");
        assertThat(status).isEqualTo(map("active", 1, "startTime", "2026-03-01T09:00:05Z"));
        sim.advance(Duration.ofHours(5));
        assertThat(at(get(backup), "status")).isEqualTo(status);
    }

    @Test
    void aJobThatSucceedsIsCompleteWithACompletionTime() {
        startBackup();

        sim.jobSucceeds(backup);
        sim.advance(Duration.ofMinutes(1));

        Map<String, Object> status = (Map<String, Object>) at(get(backup), "status");
        assertThat(status).doesNotContainKey("active").containsEntry("succeeded", 1)
                .containsEntry("startTime", "2026-03-01T09:00:05Z")
                .containsEntry("completionTime", "2026-03-01T09:10:05Z");
        assertThat(condition(get(backup), "Complete")).isEqualTo(map("type", "Complete", "status", "True",
                "lastProbeTime", "2026-03-01T09:10:05Z", "lastTransitionTime", "2026-03-01T09:10:05Z"));
        assertThat(condition(get(backup), "Failed")).isNull();
        assertThat(sim.events()).extracting(e -> e.get("reason")).containsExactly("Completed");
    }

    @Test
    void aJobThatFailsHasAFailedConditionAndNoCompletionTime() {
        startBackup();

        sim.jobFails(backup);
        sim.settle();

        Map<String, Object> status = (Map<String, Object>) at(get(backup), "status");
        assertThat(status).doesNotContainKeys("active", "succeeded", "completionTime").containsEntry("failed", 1);
        assertThat(condition(get(backup), "Failed")).containsEntry("status", "True")
                .containsEntry("reason", "BackoffLimitExceeded")
                .containsEntry("lastTransitionTime", "2026-03-01T09:10:05Z");
        assertThat(condition(get(backup), "Complete")).isNull();
    }

    @Test
    void aJobsOutcomeIsFinal() {
        startBackup();
        sim.jobSucceeds(backup);
        String version = resourceVersion(get(backup));

        sim.advance(Duration.ofMinutes(1));
        sim.jobSucceeds(backup);

        assertThat(resourceVersion(get(backup))).isEqualTo(version);
        assertThat(at(get(backup), "status.completionTime")).isEqualTo("2026-03-01T09:10:05Z");
        assertThatThrownBy(() -> sim.jobFails(backup))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("Job prod/backup already finished (Complete)");
    }

    @Test
    void jobOutcomesNeedAnExistingJob() {
        assertThatThrownBy(() -> sim.jobSucceeds(backup))
                .isInstanceOf(MissingObjectException.class).hasMessage("jobSucceeds: Job prod/backup does not exist");
        assertThatThrownBy(() -> sim.jobFails(Simulator.ref("Pod", "prod", "backup")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a Job");
    }

    // ---- garbage collection ----

    @Test
    void deletingAnOwnerCollectsItsDependentsInCascade() {
        sim.create(configMap("prod", "root", map()));
        Map<String, Object> root = get(Simulator.ref("ConfigMap", "prod", "root"));
        sim.create(ownedBy(configMap("prod", "child", map()), root));
        Map<String, Object> child = get(Simulator.ref("ConfigMap", "prod", "child"));
        sim.create(ownedBy(configMap("prod", "grandchild", map()), child));
        sim.create(configMap("prod", "unrelated", map()));
        sim.settle();
        assertThat(names()).containsExactly("child", "grandchild", "root", "unrelated");

        sim.delete(Simulator.ref("ConfigMap", "prod", "root"));
        assertThat(names()).as("dependents go at the next settle").containsExactly("child", "grandchild", "unrelated");
        sim.settle();

        assertThat(names()).containsExactly("unrelated");
    }

    @Test
    void anObjectWithOneLivingOwnerIsKept() {
        sim.create(configMap("prod", "a", map()));
        sim.create(configMap("prod", "b", map()));
        Map<String, Object> dependent = configMap("prod", "shared", map());
        ((Map<String, Object>) dependent.get("metadata")).put("ownerReferences", list(
                map("apiVersion", "v1", "kind", "ConfigMap", "name", "a", "uid", at(get(Simulator.ref("ConfigMap", "prod", "a")), "metadata.uid")),
                map("apiVersion", "v1", "kind", "ConfigMap", "name", "b", "uid", at(get(Simulator.ref("ConfigMap", "prod", "b")), "metadata.uid"))));
        sim.create(dependent);

        sim.delete(Simulator.ref("ConfigMap", "prod", "a"));
        sim.settle();
        assertThat(names()).containsExactly("b", "shared");

        sim.delete(Simulator.ref("ConfigMap", "prod", "b"));
        sim.settle();
        assertThat(names()).isEmpty();
    }

    @Test
    void anOwnerIsMatchedByUidSoARecreatedOwnerDoesNotKeepOldDependents() {
        sim.create(configMap("prod", "owner", map()));
        sim.create(ownedBy(configMap("prod", "dependent", map()), get(Simulator.ref("ConfigMap", "prod", "owner"))));

        sim.delete(Simulator.ref("ConfigMap", "prod", "owner"));
        sim.create(configMap("prod", "owner", map()));
        sim.settle();

        assertThat(names()).containsExactly("owner");
    }

    @Test
    void anOwnerInAnotherNamespaceDoesNotCountButAClusterScopedOneDoes() {
        sim.create(configMap("elsewhere", "owner", map()));
        sim.create(map("apiVersion", "v1", "kind", "Namespace", "metadata", map("name", "prod")));
        sim.create(ownedBy(configMap("prod", "wrong-namespace", map()), get(Simulator.ref("ConfigMap", "elsewhere", "owner"))));
        sim.create(ownedBy(configMap("prod", "in-namespace", map()), get(Simulator.ref("Namespace", "", "prod"))));

        sim.settle();

        assertThat(names()).as("ordered by namespace, then name").containsExactly("owner", "in-namespace");
    }

    @Test
    void anOwnerReferenceWithoutUidIsLeftAlone() {
        Map<String, Object> dependent = configMap("prod", "hand-written", map());
        ((Map<String, Object>) dependent.get("metadata")).put("ownerReferences",
                list(map("apiVersion", "v1", "kind", "ConfigMap", "name", "nobody")));
        sim.create(dependent);

        sim.settle();

        assertThat(names()).containsExactly("hand-written");
    }

    private List<Object> names() {
        return sim.cluster().list("ConfigMap").stream().map(o -> at(o, "metadata.name")).toList();
    }
}
