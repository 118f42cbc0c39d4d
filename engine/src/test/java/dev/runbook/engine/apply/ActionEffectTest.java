package dev.runbook.engine.apply;

import dev.runbook.rules.action.Apply;
import dev.runbook.rules.action.Delete;
import dev.runbook.rules.action.Requeue;
import dev.runbook.rules.action.SetCondition;
import dev.runbook.rules.action.SetMetadataEntry;
import dev.runbook.rules.action.SetStatus;
import dev.runbook.rules.fact.ObjectRef;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

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
}
