package dev.runbook.rules.action;

import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Resource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.runbook.rules.action.ActionsTest.POD;
import static dev.runbook.rules.action.ActionsTest.STORE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What each action writes, and when two writes conflict. */
class FieldWriteTest {
    private static final ObjectRef POD_REF = POD.getRef();
    private static final ObjectRef STORE_REF = STORE.getRef();
    private static final ObjectRef OTHER_POD = ObjectRef.of("v1", "Pod", "demo", "main-1");

    private static FieldWrite write(ObjectRef target, Object value, String... path) {
        // Actions hold whole numbers as longs (see Values.frozen), so expected values are normalised the same way.
        return new FieldWrite(target, List.of(path), value == FieldWrite.DELETED ? value : dev.runbook.rules.fact.Values.frozen(value));
    }

    /** Whether any write of {@code a} conflicts with any write of {@code b}. */
    private static boolean conflict(Action a, Action b) {
        for (FieldWrite x : a.writes()) {
            for (FieldWrite y : b.writes()) {
                if (x.conflictsWith(y)) {
                    assertThat(y.conflictsWith(x)).as("conflicts are symmetric").isTrue();
                    return true;
                }
            }
        }
        return false;
    }

    private static Apply configMap(Map<String, Object> labels, Map<String, Object> data) {
        return Actions.apply(Map.of("apiVersion", "v1", "kind", "ConfigMap",
                "metadata", Map.of("name", "main-config", "namespace", "demo", "labels", labels),
                "data", data));
    }

    // ---- what each action writes ---------------------------------------------------------------

    @Test
    void applyWritesEveryLeafButNotTheFieldsThatNameTheObject() {
        Apply apply = Actions.apply(Map.of("apiVersion", "apps/v1", "kind", "Deployment",
                "metadata", Map.of("name", "web", "namespace", "demo", "labels", Map.of("app.kubernetes.io/name", "web")),
                "spec", Map.of("replicas", 2, "template", Map.of("spec", Map.of("containers", List.of(Map.of("name", "c")))))));
        ObjectRef web = apply.getTarget();
        assertThat(apply.writes()).containsExactlyInAnyOrder(
                write(web, "web", "metadata", "labels", "app.kubernetes.io/name"),
                write(web, 2, "spec", "replicas"),
                write(web, List.of(Map.of("name", "c")), "spec", "template", "spec", "containers"));
    }

    @Test
    void aLabelKeyWithDotsStaysOneStep() {
        FieldWrite w = Actions.label(POD, "app.kubernetes.io/name", "db").writes().get(0);
        assertThat(w.path()).containsExactly("metadata", "labels", "app.kubernetes.io/name");
        assertThat(w.describePath()).isEqualTo("metadata.labels.app.kubernetes.io/name");
        assertThat(w.target()).isEqualTo(POD_REF);
        assertThat(w.value()).isEqualTo("db");
    }

    @Test
    void anEmptyMapIsALeaf() {
        Apply apply = configMap(Map.of(), Map.of());
        assertThat(apply.writes()).containsExactlyInAnyOrder(
                write(apply.getTarget(), Map.of(), "metadata", "labels"),
                write(apply.getTarget(), Map.of(), "data"));
    }

    @Test
    void anApplyOfOnlyTheNamingFieldsWritesNothing() {
        assertThat(Actions.apply(Map.of("apiVersion", "v1", "kind", "Namespace", "metadata", Map.of("name", "a"))).writes())
                .isEmpty();
    }

    @Test
    void mergePatchWritesEveryLeafIncludingRemovals() {
        Map<String, Object> patch = new java.util.LinkedHashMap<>();
        patch.put("spec", Map.of("replicas", 3));
        patch.put("metadata", java.util.Collections.singletonMap("finalizers", null));
        assertThat(Actions.mergePatch(POD, patch).writes()).containsExactly(
                write(POD_REF, 3, "spec", "replicas"),
                write(POD_REF, null, "metadata", "finalizers"));
    }

    @Test
    void setStatusWritesUnderStatus() {
        assertThat(Actions.setStatus(STORE, "backup.lastSlot", "x").writes())
                .containsExactly(write(STORE_REF, "x", "status", "backup", "lastSlot"));
        assertThat(Actions.setStatus(STORE, "backup", Map.of("lastSlot", "x")).writes())
                .containsExactly(write(STORE_REF, "x", "status", "backup", "lastSlot"));
    }

    @Test
    void setConditionWritesTheConditionOfItsType() {
        assertThat(Actions.setCondition(STORE, "Ready", "True", "R", "m").writes()).containsExactly(
                write(STORE_REF, Map.of("type", "Ready", "status", "True", "reason", "R", "message", "m"),
                        "status", "conditions", "Ready"));
    }

    @Test
    void labelsAndAnnotationsWriteOneEntry() {
        assertThat(Actions.annotate(POD, "note", "x").writes()).containsExactly(write(POD_REF, "x", "metadata", "annotations", "note"));
        assertThat(Actions.removeLabel(POD, "role").writes()).containsExactly(write(POD_REF, null, "metadata", "labels", "role"));
    }

    @Test
    void deleteWritesTheWholeObject() {
        FieldWrite w = Actions.delete(POD).writes().get(0);
        assertThat(w.path()).isEmpty();
        assertThat(w.value()).isSameAs(FieldWrite.DELETED);
        assertThat(w.describePath()).isEqualTo("(the whole object)");
        assertThat(FieldWrite.DELETED).hasToString("<deleted>");
    }

    @Test
    void eventsRequeuesAndTemplatesWriteNothing() {
        assertThat(Actions.event(STORE, "R", "m").writes()).isEmpty();
        assertThat(Actions.requeue(STORE, "1m").writes()).isEmpty();
        assertThat(Actions.applyTemplate("config.yaml").writes()).isEmpty();
    }

    @Test
    void thePathIsACopy() {
        List<String> path = new ArrayList<>(List.of("spec"));
        FieldWrite w = new FieldWrite(POD_REF, path, 1);
        path.add("replicas");
        assertThat(w.path()).containsExactly("spec");
        assertThatThrownBy(() -> w.path().add("x")).isInstanceOf(UnsupportedOperationException.class);
    }

    // ---- conflicts -----------------------------------------------------------------------------

    @Test
    void differentValuesOnTheSamePathConflict() {
        assertThat(write(POD_REF, "a", "spec", "x").conflictsWith(write(POD_REF, "b", "spec", "x"))).isTrue();
        assertThat(conflict(Actions.label(POD, "role", "primary"), Actions.label(POD, "role", "replica"))).isTrue();
        assertThat(conflict(Actions.label(POD, "role", "primary"), Actions.removeLabel(POD, "role"))).isTrue();
        assertThat(conflict(Actions.setStatus(STORE, "phase", "Healthy"), Actions.setStatus(STORE, "phase", "Degraded"))).isTrue();
    }

    @Test
    void equalValuesOnTheSamePathDoNotConflict() {
        assertThat(write(POD_REF, "a", "spec", "x").conflictsWith(write(POD_REF, "a", "spec", "x"))).isFalse();
        assertThat(write(POD_REF, null, "spec", "x").conflictsWith(write(POD_REF, null, "spec", "x"))).isFalse();
        Apply apply = configMap(Map.of("role", "primary"), Map.of("level", "info"));
        assertThat(conflict(apply, Actions.label(new Resource(apply.getObject()), "role", "primary"))).isFalse();
        assertThat(conflict(apply, Actions.label(new Resource(apply.getObject()), "role", "replica"))).isTrue();
        assertThat(conflict(Actions.mergePatch(POD, "spec.replicas", 3), Actions.mergePatch(POD, Map.of("spec", Map.of("replicas", 3)))))
                .isFalse();
    }

    @Test
    void aPathAndAPathInsideItConflictWhateverTheValues() {
        assertThat(write(POD_REF, Map.of("x", 1), "spec").conflictsWith(write(POD_REF, 1, "spec", "x"))).isTrue();
        assertThat(write(POD_REF, 1, "spec", "x").conflictsWith(write(POD_REF, Map.of(), "spec"))).isTrue();
        assertThat(conflict(Actions.mergePatch(POD, "spec", Map.of()), Actions.mergePatch(POD, "spec.replicas", 3))).isTrue();
        assertThat(conflict(Actions.setStatus(STORE, "conditions", List.of()), Actions.setCondition(STORE, "Ready", "True", "R", "m")))
                .isTrue();
    }

    @Test
    void siblingPathsDoNotConflict() {
        assertThat(write(POD_REF, 1, "spec", "a").conflictsWith(write(POD_REF, 2, "spec", "b"))).isFalse();
        assertThat(write(POD_REF, 1, "spec", "a").conflictsWith(write(POD_REF, 1, "spec", "ab"))).isFalse();
        assertThat(conflict(Actions.label(POD, "role", "a"), Actions.annotate(POD, "role", "b"))).isFalse();
        assertThat(conflict(Actions.setCondition(STORE, "Ready", "True", "R", "m"),
                Actions.setCondition(STORE, "Synced", "False", "R", "m"))).isFalse();
        assertThat(conflict(Actions.label(POD, "app.kubernetes.io/name", "a"), Actions.label(POD, "app", "b")))
                .as("a dotted label key is not a path into another label").isFalse();
    }

    @Test
    void deleteConflictsWithAnyWriteOnTheSameTarget() {
        Delete delete = Actions.delete(POD);
        assertThat(conflict(delete, Actions.label(POD, "role", "primary"))).isTrue();
        assertThat(conflict(delete, Actions.removeAnnotation(POD, "x"))).isTrue();
        assertThat(conflict(delete, Actions.mergePatch(POD, "spec.x", 1))).isTrue();
        assertThat(conflict(delete, Actions.setStatus(POD, "phase", "Gone"))).isTrue();
        assertThat(conflict(delete, Actions.setCondition(POD, "Ready", "False", "R", "m"))).isTrue();
        Apply apply = configMap(Map.of(), Map.of("a", "b"));
        assertThat(conflict(Actions.delete(new Resource(apply.getObject())), apply)).isTrue();
    }

    @Test
    void deleteDoesNotConflictWithItselfOrWithActionsThatWriteNothing() {
        assertThat(conflict(Actions.delete(POD), Actions.delete(POD))).isFalse();
        assertThat(conflict(Actions.delete(POD), Actions.event(POD, "Deleting", "bye"))).isFalse();
        assertThat(conflict(Actions.delete(POD), Actions.label(STORE, "role", "x"))).isFalse();
    }

    @Test
    void writesOnDifferentTargetsNeverConflict() {
        assertThat(write(POD_REF, "a", "spec", "x").conflictsWith(write(OTHER_POD, "b", "spec", "x"))).isFalse();
        assertThat(write(POD_REF, FieldWrite.DELETED).conflictsWith(write(OTHER_POD, "b", "spec"))).isFalse();
        ObjectRef sameNameOtherKind = ObjectRef.of("v1", "Service", "demo", "main-0");
        assertThat(write(POD_REF, FieldWrite.DELETED).conflictsWith(write(sameNameOtherKind, "b", "spec"))).isFalse();
        ObjectRef sameNameOtherNamespace = ObjectRef.of("v1", "Pod", "prod", "main-0");
        assertThat(write(POD_REF, "a", "spec").conflictsWith(write(sameNameOtherNamespace, "b", "spec"))).isFalse();
    }
}
