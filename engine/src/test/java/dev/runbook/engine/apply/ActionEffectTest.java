package dev.runbook.engine.apply;

import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.Apply;
import dev.runbook.rules.action.Delete;
import dev.runbook.rules.action.FinishCleanup;
import dev.runbook.rules.action.MergePatch;
import dev.runbook.rules.action.Requeue;
import dev.runbook.rules.action.SetCondition;
import dev.runbook.rules.action.SetMetadataEntry;
import dev.runbook.rules.action.SetStatus;
import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Values;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The effect of an action computed from an object alone, without a cluster: what the operator's
 * Actor and Recorder use. The simulator's ActionApplierTest covers every action through a cluster.
 */
class ActionEffectTest {
    private static final Instant NOW = Instant.parse("2026-11-30T09:00:00Z");
    private static final ObjectRef PG = ObjectRef.of("example.com/v1", "PostgresCluster", "demo", "pg");

    private static Map<String, Object> primary() {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", "pg");
        metadata.put("namespace", "demo");
        metadata.put("uid", "u-1");
        metadata.put("resourceVersion", "7");
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("apiVersion", "example.com/v1");
        object.put("kind", "PostgresCluster");
        object.put("metadata", metadata);
        object.put("spec", new LinkedHashMap<>(Map.of("instances", 3)));
        return object;
    }

    @Test
    void aStatusChangeUpdatesACopyAndKeepsTheServerFields() {
        Map<String, Object> current = primary();
        Change change = ActionEffect.on(current, new SetStatus(PG, "phase", "Ready"), NOW);

        assertThat(change.outcome()).isEqualTo(Outcome.UPDATED);
        assertThat(change.object()).extracting("status").isEqualTo(Map.of("phase", "Ready"));
        assertThat(change.object()).extracting("metadata").isEqualTo(current.get("metadata"));
        assertThat(current).doesNotContainKey("status");
    }

    @Test
    void anEffectAlreadyThereIsNoneAndReturnsTheObjectAsItWas() {
        Map<String, Object> current = primary();
        Change first = ActionEffect.on(current, new SetCondition(PG, "Ready", "True", "Up", "all up"), NOW);
        Change again = ActionEffect.on(first.object(),
                new SetCondition(PG, "Ready", "True", "Up", "all up"), NOW.plusSeconds(60));

        assertThat(again.outcome()).isEqualTo(Outcome.NONE);
        assertThat(again.object()).isEqualTo(first.object());
        assertThat(first.object()).extracting("status.conditions").asList().singleElement()
                .extracting("lastTransitionTime").isEqualTo(NOW.toString());
    }

    @Test
    void anApplyOfAnAbsentObjectCreatesItWithoutTheFieldsTheClusterOwns() {
        Map<String, Object> desired = primary();
        Change change = ActionEffect.on(null, new Apply(desired, null), NOW);

        assertThat(change.outcome()).isEqualTo(Outcome.CREATED);
        assertThat(change.object()).extracting("metadata").isEqualTo(Map.of("name", "pg", "namespace", "demo"));
    }

    @Test
    void deleteAndRequeue() {
        assertThat(ActionEffect.on(primary(), new Delete(PG), NOW)).isEqualTo(new Change(Outcome.DELETED, null));
        assertThat(ActionEffect.on(null, new Delete(PG), NOW)).isEqualTo(new Change(Outcome.NONE, null));
        assertThat(ActionEffect.on(primary(), new Requeue(PG, java.time.Duration.ofSeconds(30)), NOW).outcome())
                .isEqualTo(Outcome.NONE);
    }

    @Test
    void anActionOnAnAbsentOrAnotherObjectIsMissingItsTarget() {
        assertThatThrownBy(() -> ActionEffect.on(null, new SetMetadataEntry(PG, SetMetadataEntry.Kind.LABEL, "role", "primary"), NOW))
                .isInstanceOf(MissingObjectException.class)
                .hasMessageContaining("does not exist");
        ObjectRef other = ObjectRef.of("example.com/v1", "PostgresCluster", "demo", "other");
        assertThatThrownBy(() -> ActionEffect.on(primary(), new SetStatus(other, "phase", "Ready"), NOW))
                .isInstanceOf(MissingObjectException.class)
                .hasMessageContaining("demo/other");
    }

    /** A primary with a status, labels and a finalizer, as the API server would hand it out. */
    private static Map<String, Object> withStatus() {
        Map<String, Object> object = primary();
        @SuppressWarnings("unchecked")
        Map<String, Object> metadata = (Map<String, Object>) object.get("metadata");
        metadata.put("labels", new LinkedHashMap<>(Map.of("role", "primary")));
        metadata.put("finalizers", new ArrayList<>(List.of("runbook.dev/cleanup")));
        Map<String, Object> ready = new LinkedHashMap<>();
        ready.put("type", "Ready");
        ready.put("status", "True");
        ready.put("reason", "Up");
        ready.put("message", "all up");
        ready.put("lastTransitionTime", "2026-11-30T08:00:00Z");
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("phase", "Healthy");
        status.put("members", new LinkedHashMap<>(Map.of("pg-0", new LinkedHashMap<>(Map.of("role", "primary")))));
        status.put("conditions", new ArrayList<>(List.of(ready)));
        object.put("status", status);
        return object;
    }

    /** Each action kind once with an effect already there and once with a new one, and the outcome it has. */
    static Stream<Arguments> everyKind() {
        Map<String, Object> specPatch = Map.of("spec", Map.of("instances", 3L));
        return Stream.of(
                arguments(new SetStatus(PG, "phase", "Healthy"), Outcome.NONE),
                arguments(new SetStatus(PG, "phase", "Degraded"), Outcome.UPDATED),
                arguments(new SetStatus(PG, "members.pg-0.role", "primary"), Outcome.NONE),
                arguments(new SetStatus(PG, "members.pg-1.role", "replica"), Outcome.UPDATED),
                arguments(new SetStatus(PG, "members.pg-0", null), Outcome.UPDATED),
                arguments(new SetStatus(PG, "absent.below", null), Outcome.NONE),
                arguments(new SetCondition(PG, "Ready", "True", "Up", "all up"), Outcome.NONE),
                arguments(new SetCondition(PG, "Ready", "False", "Down", "pg-0 failed"), Outcome.UPDATED),
                arguments(new SetCondition(PG, "Fenced", "False", "NotFenced", ""), Outcome.UPDATED),
                arguments(new SetMetadataEntry(PG, SetMetadataEntry.Kind.LABEL, "role", "primary"), Outcome.NONE),
                arguments(new SetMetadataEntry(PG, SetMetadataEntry.Kind.LABEL, "role", null), Outcome.UPDATED),
                arguments(new SetMetadataEntry(PG, SetMetadataEntry.Kind.ANNOTATION, "note", "x"), Outcome.UPDATED),
                arguments(new FinishCleanup(PG, "other.dev/cleanup"), Outcome.NONE),
                arguments(new FinishCleanup(PG, "runbook.dev/cleanup"), Outcome.UPDATED),
                arguments(new MergePatch(PG, specPatch), Outcome.NONE),
                arguments(new MergePatch(PG, Map.of("spec", Map.of("instances", 5))), Outcome.UPDATED),
                arguments(new Apply(withStatus(), null), Outcome.NONE),
                arguments(new Requeue(PG, java.time.Duration.ofSeconds(30)), Outcome.NONE));
    }

    private static Arguments arguments(Action action, Outcome outcome) {
        return Arguments.of(action, outcome);
    }

    @ParameterizedTest
    @MethodSource("everyKind")
    void theOutcomeIsAsOnAWholeCopyAndTheObjectGivenIsNeverChanged(Action action, Outcome expected) {
        Map<String, Object> current = withStatus();
        String before = current.toString();
        Map<String, Object> deepCopy = Json.copyMap(current, "object");

        Change change = ActionEffect.on(current, action, NOW);

        assertThat(change.outcome()).isEqualTo(expected);
        assertThat(current.toString()).isEqualTo(before);
        // The same as the action on a whole copy of its own: sharing changes no outcome and no field.
        Change onCopy = ActionEffect.on(deepCopy, action, NOW);
        assertThat(onCopy.outcome()).isEqualTo(expected);
        assertThat(Json.same(change.object(), onCopy.object())).isTrue();
        if (expected == Outcome.NONE) assertThat(change.object()).isSameAs(current);
    }

    @ParameterizedTest
    @MethodSource("everyKind")
    void aFrozenObjectCanBeActedOn(Action action, Outcome expected) {
        Map<String, Object> frozen = Values.frozenMap(withStatus());

        assertThat(ActionEffect.on(frozen, action, NOW).outcome()).isEqualTo(expected);
    }

    @Test
    void aStatusActionCopiesOnlyWhatItWritesAndSharesTheRest() {
        Map<String, Object> current = withStatus();
        current.put("spec", untouchable());

        Change change = ActionEffect.on(current, new SetStatus(PG, "members.pg-1.role", "replica"), NOW);

        assertThat(change.outcome()).isEqualTo(Outcome.UPDATED);
        Map<String, Object> after = change.object();
        assertThat(after).isNotSameAs(current);
        assertThat(after.get("spec")).isSameAs(current.get("spec"));
        assertThat(after.get("metadata")).isSameAs(current.get("metadata"));
        Map<String, Object> status = Json.mapAt(after, "status");
        Map<String, Object> was = Json.mapAt(current, "status");
        assertThat(status).isNotSameAs(was);
        assertThat(status.get("conditions")).isSameAs(was.get("conditions"));
        assertThat(Json.mapAt(status, "members")).isNotSameAs(was.get("members"))
                .containsEntry("pg-1", Map.of("role", "replica"));
        assertThat(Json.mapAt(status, "members").get("pg-0")).isSameAs(Json.mapAt(was, "members").get("pg-0"));
        assertThat(Json.mapAt(was, "members")).doesNotContainKey("pg-1");
    }

    @Test
    void aConditionCopiesTheListAndTheOneConditionItWrites() {
        Map<String, Object> current = withStatus();
        current.put("spec", untouchable());

        Change change = ActionEffect.on(current, new SetCondition(PG, "Ready", "False", "Down", "pg-0 failed"), NOW);

        List<?> conditions = (List<?>) Json.mapAt(change.object(), "status").get("conditions");
        List<?> were = (List<?>) Json.mapAt(current, "status").get("conditions");
        assertThat(conditions).isNotSameAs(were);
        assertThat(conditions).singleElement().extracting("status", "lastTransitionTime").containsExactly("False", NOW.toString());
        assertThat(were).singleElement().extracting("status", "lastTransitionTime")
                .containsExactly("True", "2026-11-30T08:00:00Z");
        assertThat(change.object().get("spec")).isSameAs(current.get("spec"));
    }

    @Test
    void aMetadataActionCopiesTheMetadataAndSharesTheStatus() {
        Map<String, Object> current = withStatus();
        current.put("spec", untouchable());

        Change change = ActionEffect.on(current, new SetMetadataEntry(PG, SetMetadataEntry.Kind.LABEL, "role", "replica"), NOW);

        Map<String, Object> metadata = Json.mapAt(change.object(), "metadata");
        assertThat(metadata.get("labels")).isEqualTo(Map.of("role", "replica"));
        assertThat(metadata.get("resourceVersion")).isEqualTo("7");
        assertThat(Json.mapAt(current, "metadata").get("labels")).isEqualTo(Map.of("role", "primary"));
        assertThat(change.object().get("status")).isSameAs(current.get("status"));
    }

    @Test
    void aCycleOfStatusActionsProjectedOneAfterTheOtherLeavesEveryStepAsItWas() {
        Map<String, Object> current = withStatus();
        List<Action> actions = List.of(new SetStatus(PG, "phase", "Degraded"),
                new SetCondition(PG, "Ready", "False", "Down", "pg-0 failed"),
                new SetStatus(PG, "members.pg-0.role", "failed"), new SetStatus(PG, "phase", "Failover"));
        List<Map<String, Object>> steps = new ArrayList<>(List.of(current));
        List<String> texts = new ArrayList<>(List.of(current.toString()));
        Map<String, Object> object = current;
        for (Action action : actions) {
            object = ActionEffect.on(object, action, NOW).object();
            steps.add(object);
            texts.add(object.toString());
        }

        for (int i = 0; i < steps.size(); i++) assertThat(steps.get(i).toString()).isEqualTo(texts.get(i));
        assertThat(object).extracting("status.phase", "status.members").containsExactly("Failover", Map.of("pg-0", Map.of("role", "failed")));
    }

    /** A map that fails the test when anything reads its entries: what an action must neither copy nor compare. */
    private static Map<String, Object> untouchable() {
        return new AbstractMap<>() {
            @Override
            public Set<Entry<String, Object>> entrySet() {
                throw new AssertionError("a field the action does not write was read whole");
            }
        };
    }
}
