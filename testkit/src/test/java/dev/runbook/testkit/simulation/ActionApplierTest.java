package dev.runbook.testkit.simulation;

import dev.runbook.engine.apply.Outcome;
import dev.runbook.engine.apply.MissingObjectException;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.Apply;
import dev.runbook.rules.action.ApplyTemplate;
import dev.runbook.rules.action.Delete;
import dev.runbook.rules.action.EmitEvent;
import dev.runbook.rules.action.MergePatch;
import dev.runbook.rules.action.Requeue;
import dev.runbook.rules.action.SetCondition;
import dev.runbook.rules.action.SetMetadataEntry;
import dev.runbook.rules.action.SetStatus;
import dev.runbook.rules.fact.ObjectRef;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.runbook.testkit.simulation.Kube.T0;
import static dev.runbook.testkit.simulation.Kube.assertSameJson;
import static dev.runbook.testkit.simulation.Kube.at;
import static dev.runbook.testkit.simulation.Kube.condition;
import static dev.runbook.testkit.simulation.Kube.configMap;
import static dev.runbook.testkit.simulation.Kube.list;
import static dev.runbook.testkit.simulation.Kube.map;
import static dev.runbook.testkit.simulation.Kube.resourceVersion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ActionApplierTest {
    private final InMemoryCluster cluster = new InMemoryCluster(T0);
    private final ActionApplier applier = new ActionApplier(cluster);
    private final ObjectRef settings = ObjectRef.of("v1", "ConfigMap", "db", "settings");
    private final ObjectRef missing = ObjectRef.of("v1", "ConfigMap", "db", "missing");

    private Map<String, Object> stored() {
        return cluster.get(settings).orElseThrow();
    }

    /** Applies the action twice: the first outcome is returned, the second must be NONE and change nothing. */
    private Outcome applyTwice(Action action) {
        Outcome first = applier.apply(action);
        Map<String, Object> after = stored();
        assertThat(applier.apply(action)).as("the same action again: %s", action).isEqualTo(Outcome.NONE);
        assertThat(stored()).as("after applying %s again", action).isEqualTo(after);
        return first;
    }

    private void givenSettings() {
        cluster.put(map("apiVersion", "v1", "kind", "ConfigMap",
                "metadata", map("name", "settings", "namespace", "db", "labels", map("app", "db")),
                "data", map("a", "1", "b", "2"),
                "spec", map("replicas", 3, "ports", list(80, 443), "nested", map("x", 1, "y", 2))));
    }

    // ---- apply ----

    @Test
    void applyCreatesAMissingObjectThenDoesNothing() {
        Outcome first = applyTwice(new Apply(configMap("db", "settings", map("a", "1")), null));

        assertThat(first).isEqualTo(Outcome.CREATED);
        assertThat(stored()).containsEntry("data", map("a", "1"));
        assertThat(resourceVersion(stored())).isEqualTo("1");
    }

    @Test
    void applySetsOnlyTheGivenFieldsAndReportsAnUpdate() {
        givenSettings();
        Map<String, Object> desired = map("apiVersion", "v1", "kind", "ConfigMap",
                "metadata", map("name", "settings", "namespace", "db", "labels", map("tier", "data")),
                "data", map("a", "changed"));

        Outcome first = applyTwice(new Apply(desired, null));

        assertThat(first).isEqualTo(Outcome.UPDATED);
        assertThat(at(stored(), "data")).isEqualTo(map("a", "changed", "b", "2"));
        assertThat(at(stored(), "metadata.labels")).isEqualTo(map("app", "db", "tier", "data"));
        assertThat(at(stored(), "spec.replicas")).isEqualTo(3);
        assertThat(resourceVersion(stored())).isEqualTo("2");
    }

    @Test
    void applyOfValuesAlreadyThereIsNoneComparingNumbersByValueAndIgnoringUnsetFields() {
        givenSettings();
        String before = resourceVersion(stored());

        Outcome outcome = applier.apply(new Apply(map("apiVersion", "v1", "kind", "ConfigMap",
                "metadata", map("name", "settings", "namespace", "db"),
                "spec", map("replicas", 3L, "nested", map("y", 2.0))), null));

        assertThat(outcome).isEqualTo(Outcome.NONE);
        assertThat(resourceVersion(stored())).isEqualTo(before);
    }

    @Test
    void applyReplacesListsWholeAndANullRemovesAField() {
        givenSettings();

        Outcome outcome = applyTwice(new Apply(map("apiVersion", "v1", "kind", "ConfigMap",
                "metadata", map("name", "settings", "namespace", "db"),
                "spec", mapWithNull("ports", list(8080), "nested")), null));

        assertThat(outcome).isEqualTo(Outcome.UPDATED);
        assertSameJson(at(stored(), "spec"), map("replicas", 3, "ports", list(8080)));
    }

    @Test
    void applyIgnoresServerManagedMetadata() {
        givenSettings();
        String uid = (String) at(stored(), "metadata.uid");

        Outcome outcome = applier.apply(new Apply(map("apiVersion", "v1", "kind", "ConfigMap",
                "metadata", map("name", "settings", "namespace", "db", "uid", "forged", "resourceVersion", "99",
                        "generation", 7, "creationTimestamp", "2000-01-01T00:00:00Z")), null));

        assertThat(outcome).isEqualTo(Outcome.NONE);
        assertThat(at(stored(), "metadata.uid")).isEqualTo(uid);
        assertThat(at(stored(), "metadata.generation")).isEqualTo(1L);
    }

    // ---- mergePatch ----

    @Test
    void mergePatchMergesMapsReplacesValuesAndRemovesNulls() {
        givenSettings();
        Map<String, Object> patch = map("data", mapWithNull("a", "patched", "b"),
                "spec", map("nested", map("z", 3)));

        Outcome first = applyTwice(new MergePatch(settings, patch));

        assertThat(first).isEqualTo(Outcome.UPDATED);
        assertThat(at(stored(), "data")).isEqualTo(map("a", "patched"));
        assertSameJson(at(stored(), "spec.nested"), map("x", 1, "y", 2, "z", 3));
    }

    @Test
    void mergePatchThatChangesNothingIsNone() {
        givenSettings();
        String before = resourceVersion(stored());

        assertThat(applier.apply(new MergePatch(settings, map("data", mapWithNull("a", "1", "absent")))))
                .isEqualTo(Outcome.NONE);
        assertThat(applier.apply(new MergePatch(settings, map("nothere", mapWithNull("deeper"))))).isEqualTo(Outcome.NONE);
        assertThat(resourceVersion(stored())).isEqualTo(before);
        assertThat(stored()).doesNotContainKey("nothere");
    }

    @Test
    void mergePatchOfAMissingObjectThrowsNamingTheActionAndTheObject() {
        assertThatThrownBy(() -> applier.apply(new MergePatch(missing, map("data", map("a", "1")))))
                .isInstanceOf(MissingObjectException.class)
                .hasMessageStartingWith("mergePatch ConfigMap db/missing")
                .hasMessageEndingWith("ConfigMap db/missing does not exist")
                .satisfies(e -> assertThat(((MissingObjectException) e).getRef()).isEqualTo(missing));
        assertThat(cluster.list()).isEmpty();
    }

    @Test
    void mergePatchCannotRenameAnObject() {
        givenSettings();

        assertThatThrownBy(() -> applier.apply(new MergePatch(settings, map("metadata", map("name", "renamed")))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("identity of ConfigMap db/settings");
        assertThat(cluster.list()).hasSize(1);
    }

    // ---- delete ----

    @Test
    void deleteRemovesThenIsNone() {
        givenSettings();

        assertThat(applier.apply(new Delete(settings))).isEqualTo(Outcome.DELETED);
        assertThat(applier.apply(new Delete(settings))).isEqualTo(Outcome.NONE);
        assertThat(cluster.get(settings)).isEmpty();
    }

    // ---- setStatus ----

    @Test
    void setStatusCreatesIntermediateMapsThenIsNone() {
        givenSettings();

        Outcome first = applyTwice(new SetStatus(settings, "backup.last.name", "b-1"));

        assertThat(first).isEqualTo(Outcome.UPDATED);
        assertThat(at(stored(), "status")).isEqualTo(map("backup", map("last", map("name", "b-1"))));
        assertThat(at(stored(), "metadata.generation")).as("status is not the desired state").isEqualTo(1L);
    }

    @Test
    void setStatusReplacesAValueAndComparesNumbersByValue() {
        givenSettings();
        applier.apply(new SetStatus(settings, "members", 2));
        String before = resourceVersion(stored());

        assertThat(applier.apply(new SetStatus(settings, "members", 2L))).isEqualTo(Outcome.NONE);
        assertThat(resourceVersion(stored())).isEqualTo(before);
        assertThat(applier.apply(new SetStatus(settings, "members", 3))).isEqualTo(Outcome.UPDATED);
        assertSameJson(at(stored(), "status.members"), 3);
        assertThat(resourceVersion(stored())).isNotEqualTo(before);
    }

    @Test
    void setStatusWithNullRemovesTheFieldAndRemovingAnAbsentOneIsNone() {
        givenSettings();
        applier.apply(new SetStatus(settings, "phase", "Ready"));

        assertThat(applyTwice(new SetStatus(settings, "phase", null))).isEqualTo(Outcome.UPDATED);
        assertThat(applier.apply(new SetStatus(settings, "not.there.at.all", null))).isEqualTo(Outcome.NONE);
        assertThat(at(stored(), "status")).isEqualTo(map());
    }

    @Test
    void setStatusOfAMissingObjectThrows() {
        assertThatThrownBy(() -> applier.apply(new SetStatus(missing, "phase", "Ready")))
                .isInstanceOf(MissingObjectException.class)
                .hasMessage("setStatus ConfigMap db/missing phase: ConfigMap db/missing does not exist");
    }

    // ---- setCondition ----

    @Test
    void setConditionAddsANewConditionStampedWithTheClustersTime() {
        givenSettings();
        cluster.setNow(T0.plusSeconds(30));

        Outcome first = applyTwice(new SetCondition(settings, "Ready", "False", "Starting", "0 of 3"));

        assertThat(first).isEqualTo(Outcome.UPDATED);
        assertThat(condition(stored(), "Ready")).isEqualTo(map("type", "Ready", "status", "False",
                "reason", "Starting", "message", "0 of 3", "lastTransitionTime", "2026-03-01T09:00:30Z"));
    }

    @Test
    void setConditionKeepsTheTransitionTimeWhenOnlyReasonOrMessageChange() {
        givenSettings();
        applier.apply(new SetCondition(settings, "Ready", "False", "Starting", "0 of 3"));
        cluster.setNow(T0.plusSeconds(60));

        assertThat(applier.apply(new SetCondition(settings, "Ready", "False", "Starting", "2 of 3"))).isEqualTo(Outcome.UPDATED);

        assertThat(condition(stored(), "Ready"))
                .containsEntry("message", "2 of 3").containsEntry("lastTransitionTime", "2026-03-01T09:00:00Z");
    }

    @Test
    void setConditionMovesTheTransitionTimeWhenTheStatusChanges() {
        givenSettings();
        applier.apply(new SetCondition(settings, "Ready", "False", "Starting", "0 of 3"));
        applier.apply(new SetCondition(settings, "Degraded", "False", "", ""));
        cluster.setNow(T0.plusSeconds(90));

        assertThat(applier.apply(new SetCondition(settings, "Ready", "True", "AllReady", "3 of 3"))).isEqualTo(Outcome.UPDATED);

        assertThat(condition(stored(), "Ready")).containsEntry("status", "True")
                .containsEntry("reason", "AllReady").containsEntry("lastTransitionTime", "2026-03-01T09:01:30Z");
        assertThat(condition(stored(), "Degraded")).containsEntry("lastTransitionTime", "2026-03-01T09:00:00Z");
        assertThat((List<?>) at(stored(), "status.conditions")).extracting(c -> (Object) ((Map<?, ?>) c).get("type"))
                .containsExactly("Ready", "Degraded");
    }

    @Test
    void setConditionWithTheSameValuesIsNoneAndKeepsTheTime() {
        givenSettings();
        applier.apply(new SetCondition(settings, "Ready", "True", "AllReady", "3 of 3"));
        String before = resourceVersion(stored());
        cluster.setNow(T0.plusSeconds(300));

        assertThat(applier.apply(new SetCondition(settings, "Ready", "True", "AllReady", "3 of 3"))).isEqualTo(Outcome.NONE);
        assertThat(resourceVersion(stored())).isEqualTo(before);
        assertThat(condition(stored(), "Ready")).containsEntry("lastTransitionTime", "2026-03-01T09:00:00Z");
    }

    @Test
    void setConditionOfAMissingObjectThrows() {
        assertThatThrownBy(() -> applier.apply(new SetCondition(missing, "Ready", "True", "", "")))
                .isInstanceOf(MissingObjectException.class).hasMessageStartingWith("setCondition ConfigMap db/missing Ready");
    }

    // ---- event, requeue ----

    @Test
    void anEventIsRecordedEveryTimeAndReportedAsCreatedWithoutTouchingTheObject() {
        givenSettings();
        String before = resourceVersion(stored());
        EmitEvent event = new EmitEvent(settings, "Warning", "FailoverStarted", "db-0 is gone");

        assertThat(applier.apply(event)).isEqualTo(Outcome.CREATED);
        assertThat(applier.apply(event)).isEqualTo(Outcome.CREATED);
        assertThat(applier.apply(new EmitEvent(missing, "Normal", "About", "a missing object"))).isEqualTo(Outcome.CREATED);

        assertThat(cluster.events()).extracting(e -> e.get("reason")).containsExactly("FailoverStarted", "FailoverStarted", "About");
        assertThat(cluster.events().get(0)).containsEntry("type", "Warning").containsEntry("message", "db-0 is gone");
        assertThat(at(cluster.events().get(0), "source.component")).isEqualTo(ActionApplier.COMPONENT);
        assertThat(resourceVersion(stored())).isEqualTo(before);
        assertThat(cluster.list()).hasSize(1);
    }

    @Test
    void requeueChangesNothing() {
        givenSettings();
        List<Map<String, Object>> before = cluster.list();

        assertThat(applier.apply(new Requeue(settings, Duration.ofSeconds(30)))).isEqualTo(Outcome.NONE);
        assertThat(applier.apply(new Requeue(missing, Duration.ZERO))).isEqualTo(Outcome.NONE);
        assertThat(cluster.list()).isEqualTo(before);
        assertThat(cluster.events()).isEmpty();
    }

    // ---- label, annotate ----

    @Test
    void labelSetsChangesAndRemoves() {
        givenSettings();

        assertThat(applyTwice(new SetMetadataEntry(settings, SetMetadataEntry.Kind.LABEL, "role", "primary"))).isEqualTo(Outcome.UPDATED);
        assertThat(at(stored(), "metadata.labels")).isEqualTo(map("app", "db", "role", "primary"));
        assertThat(applyTwice(new SetMetadataEntry(settings, SetMetadataEntry.Kind.LABEL, "role", "replica"))).isEqualTo(Outcome.UPDATED);
        assertThat(applyTwice(new SetMetadataEntry(settings, SetMetadataEntry.Kind.LABEL, "role", null))).isEqualTo(Outcome.UPDATED);
        assertThat(at(stored(), "metadata.labels")).isEqualTo(map("app", "db"));
    }

    @Test
    void annotateAddsTheMapWhenNeededAndRemovingTheLastEntryRemovesIt() {
        givenSettings();
        SetMetadataEntry annotate = new SetMetadataEntry(settings, SetMetadataEntry.Kind.ANNOTATION, "runbook.dev/fenced", "true");

        assertThat(applyTwice(annotate)).isEqualTo(Outcome.UPDATED);
        assertThat(at(stored(), "metadata.annotations")).isEqualTo(map("runbook.dev/fenced", "true"));
        assertThat(applyTwice(new SetMetadataEntry(settings, SetMetadataEntry.Kind.ANNOTATION, "runbook.dev/fenced", null)))
                .isEqualTo(Outcome.UPDATED);
        assertThat(((Map<?, ?>) at(stored(), "metadata")).containsKey("annotations")).isFalse();
    }

    @Test
    void removingAnAbsentLabelIsNone() {
        givenSettings();
        String before = resourceVersion(stored());

        assertThat(applier.apply(new SetMetadataEntry(settings, SetMetadataEntry.Kind.LABEL, "absent", null))).isEqualTo(Outcome.NONE);
        assertThat(resourceVersion(stored())).isEqualTo(before);
    }

    @Test
    void labelOfAMissingObjectThrows() {
        assertThatThrownBy(() -> applier.apply(new SetMetadataEntry(missing, SetMetadataEntry.Kind.ANNOTATION, "k", "v")))
                .isInstanceOf(MissingObjectException.class).hasMessageStartingWith("annotate ConfigMap db/missing k");
    }

    // ---- plans ----

    @Test
    void applyAllReturnsOneOutcomePerActionInOrder() {
        List<Action> plan = List.of(
                new Apply(configMap("db", "settings", map("a", "1")), null),
                new SetStatus(settings, "phase", "Ready"),
                new SetCondition(settings, "Ready", "True", "Ok", ""),
                new EmitEvent(settings, "Normal", "Configured", ""),
                new Requeue(settings, Duration.ofMinutes(1)),
                new Delete(missing));

        assertThat(applier.applyAll(plan)).containsExactly(
                Outcome.CREATED, Outcome.UPDATED, Outcome.UPDATED, Outcome.CREATED, Outcome.NONE, Outcome.NONE);
        String after = resourceVersion(stored());
        assertThat(applier.applyAll(plan)).containsExactly(
                Outcome.NONE, Outcome.NONE, Outcome.NONE, Outcome.CREATED, Outcome.NONE, Outcome.NONE);
        assertThat(resourceVersion(stored())).isEqualTo(after);
    }

    @Test
    void aPlanStopsAtTheFirstFailingActionKeepingWhatWasApplied() {
        List<Action> plan = List.of(
                new Apply(configMap("db", "settings", map()), null),
                new SetStatus(missing, "phase", "Ready"),
                new SetStatus(settings, "phase", "Ready"));

        assertThatThrownBy(() -> applier.applyAll(plan)).isInstanceOf(MissingObjectException.class);
        assertThat(stored()).doesNotContainKey("status");
    }

    @Test
    void anUnrenderedTemplateIsRefused() {
        assertThatThrownBy(() -> applier.apply(new ApplyTemplate("statefulset.yaml", Map.of())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rendered");
    }

    private static Map<String, Object> mapWithNull(String key, Object value, String nullKey) {
        Map<String, Object> map = new HashMap<>();
        map.put(key, value);
        map.put(nullKey, null);
        return map;
    }

    private static Map<String, Object> mapWithNull(String nullKey) {
        Map<String, Object> map = new HashMap<>();
        map.put(nullKey, null);
        return map;
    }
}
