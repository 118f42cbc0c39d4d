package dev.runbook.testkit.simulation;

import dev.runbook.rules.fact.ObjectRef;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.runbook.testkit.simulation.Kube.T0;
import static dev.runbook.testkit.simulation.Kube.at;
import static dev.runbook.testkit.simulation.Kube.configMap;
import static dev.runbook.testkit.simulation.Kube.map;
import static dev.runbook.testkit.simulation.Kube.resourceVersion;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InMemoryClusterTest {
    private final InMemoryCluster cluster = new InMemoryCluster(T0);
    private final ObjectRef settings = ObjectRef.of("v1", "ConfigMap", "db", "settings");

    @Test
    void createFillsUidResourceVersionCreationTimestampAndGeneration() {
        cluster.put(configMap("db", "settings", map("a", "1")));
        cluster.setNow(T0.plusSeconds(5));
        cluster.put(configMap("db", "other", map()));

        Map<String, Object> first = cluster.get(settings).orElseThrow();
        assertThat(at(first, "metadata.uid")).isEqualTo("00000000-0000-0000-0000-000000000001");
        assertThat(at(first, "metadata.resourceVersion")).isEqualTo("1");
        assertThat(at(first, "metadata.creationTimestamp")).isEqualTo("2026-03-01T09:00:00Z");
        assertThat(at(first, "metadata.generation")).isEqualTo(1L);
        Map<String, Object> second = cluster.get(ObjectRef.of("v1", "ConfigMap", "db", "other")).orElseThrow();
        assertThat(at(second, "metadata.uid")).isEqualTo("00000000-0000-0000-0000-000000000002");
        assertThat(at(second, "metadata.resourceVersion")).isEqualTo("2");
        assertThat(at(second, "metadata.creationTimestamp")).isEqualTo("2026-03-01T09:00:05Z");
    }

    @Test
    void createKeepsAGivenUidAndCreationTimestampButRejectsAUidInUse() {
        Map<String, Object> snapshot = configMap("db", "settings", map());
        @SuppressWarnings("unchecked")
        Map<String, Object> metadata = (Map<String, Object>) snapshot.get("metadata");
        metadata.put("uid", "abc");
        metadata.put("creationTimestamp", "2020-01-01T00:00:00Z");
        cluster.put(snapshot);

        assertThat(at(cluster.get(settings).orElseThrow(), "metadata.uid")).isEqualTo("abc");
        assertThat(at(cluster.get(settings).orElseThrow(), "metadata.creationTimestamp")).isEqualTo("2020-01-01T00:00:00Z");
        Map<String, Object> clash = configMap("db", "clash", map());
        @SuppressWarnings("unchecked")
        Map<String, Object> clashMetadata = (Map<String, Object>) clash.get("metadata");
        clashMetadata.put("uid", "abc");
        assertThatThrownBy(() -> cluster.put(clash))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("uid abc");
    }

    @Test
    void replaceKeepsUidAndCreationTimestampAndBumpsResourceVersionOnlyOnChange() {
        cluster.put(configMap("db", "settings", map("a", "1")));
        cluster.setNow(T0.plus(Duration.ofMinutes(1)));

        cluster.put(configMap("db", "settings", map("a", "1")));
        Map<String, Object> unchanged = cluster.get(settings).orElseThrow();
        assertThat(resourceVersion(unchanged)).isEqualTo("1");

        cluster.put(configMap("db", "settings", map("a", "2")));
        Map<String, Object> changed = cluster.get(settings).orElseThrow();
        assertThat(resourceVersion(changed)).isEqualTo("2");
        assertThat(at(changed, "metadata.uid")).isEqualTo(at(unchanged, "metadata.uid"));
        assertThat(at(changed, "metadata.creationTimestamp")).isEqualTo("2026-03-01T09:00:00Z");
        assertThat(at(changed, "data.a")).isEqualTo("2");
    }

    @Test
    void numbersCompareByValueSoAnIntegerForALongIsNoChange() {
        cluster.put(map("apiVersion", "v1", "kind", "Thing", "metadata", map("name", "t"), "spec", map("n", 3L)));
        cluster.put(map("apiVersion", "v1", "kind", "Thing", "metadata", map("name", "t"), "spec", map("n", 3.0)));

        assertThat(resourceVersion(cluster.get(ObjectRef.of("v1", "Thing", "", "t")).orElseThrow())).isEqualTo("1");
    }

    @Test
    void generationCountsChangesOfTheDesiredStateOnly() {
        cluster.put(map("apiVersion", "v1", "kind", "Thing", "metadata", map("name", "t"), "spec", map("n", 1)));
        ObjectRef thing = ObjectRef.of("v1", "Thing", "", "t");

        cluster.put(map("apiVersion", "v1", "kind", "Thing", "metadata", map("name", "t", "labels", map("x", "y")),
                "spec", map("n", 1), "status", map("ok", true)));
        assertThat(at(cluster.get(thing).orElseThrow(), "metadata.generation")).isEqualTo(1L);
        assertThat(resourceVersion(cluster.get(thing).orElseThrow())).isEqualTo("2");

        cluster.put(map("apiVersion", "v1", "kind", "Thing", "metadata", map("name", "t"), "spec", map("n", 2)));
        assertThat(at(cluster.get(thing).orElseThrow(), "metadata.generation")).isEqualTo(2L);
    }

    @Test
    void aReplaceWithAnotherUidIsRefused() {
        cluster.put(configMap("db", "settings", map()));
        Map<String, Object> other = configMap("db", "settings", map());
        @SuppressWarnings("unchecked")
        Map<String, Object> metadata = (Map<String, Object>) other.get("metadata");
        metadata.put("uid", "someone-else");

        assertThatThrownBy(() -> cluster.put(other))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ConfigMap db/settings").hasMessageContaining("someone-else");
    }

    @Test
    void anObjectNeedsApiVersionKindAndName() {
        assertThatThrownBy(() -> cluster.put(map("kind", "ConfigMap", "metadata", map("name", "x"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("apiVersion");
        assertThatThrownBy(() -> cluster.put(map("apiVersion", "v1", "metadata", map("name", "x"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("kind");
        assertThatThrownBy(() -> cluster.put(map("apiVersion", "v1", "kind", "ConfigMap", "metadata", map())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("metadata.name");
        assertThatThrownBy(() -> cluster.put(configMap("db", "x", map("bad", new Object()))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("data.bad");
    }

    @Test
    void listIsOrderedByKindNamespaceAndName() {
        cluster.put(configMap("b", "z", map()));
        cluster.put(map("apiVersion", "v1", "kind", "Secret", "metadata", map("name", "a", "namespace", "a")));
        cluster.put(configMap("b", "a", map()));
        cluster.put(configMap("a", "z", map()));

        assertThat(cluster.list()).extracting(o -> at(o, "kind") + " " + at(o, "metadata.namespace") + "/" + at(o, "metadata.name"))
                .containsExactly("ConfigMap a/z", "ConfigMap b/a", "ConfigMap b/z", "Secret a/a");
        assertThat(cluster.list("ConfigMap")).hasSize(3);
        assertThat(cluster.list("Secret")).extracting(o -> at(o, "metadata.name")).containsExactly("a");
        assertThat(cluster.list("Pod")).isEmpty();
    }

    @Test
    void theApiVersionOfAReferenceIsNotPartOfTheIdentity() {
        cluster.put(configMap("db", "settings", map()));

        assertThat(cluster.get(ObjectRef.of("", "ConfigMap", "db", "settings"))).isPresent();
        assertThat(cluster.get(ObjectRef.of("v1", "Secret", "db", "settings"))).isEmpty();
    }

    @Test
    void deleteSaysWhetherThereWasAnObject() {
        cluster.put(configMap("db", "settings", map()));

        assertThat(cluster.delete(settings)).isTrue();
        assertThat(cluster.delete(settings)).isFalse();
        assertThat(cluster.get(settings)).isEmpty();
    }

    @Test
    void aRecreatedObjectGetsANewUid() {
        cluster.put(configMap("db", "settings", map()));
        Object first = at(cluster.get(settings).orElseThrow(), "metadata.uid");
        cluster.delete(settings);
        cluster.put(configMap("db", "settings", map()));

        assertThat(at(cluster.get(settings).orElseThrow(), "metadata.uid")).isNotEqualTo(first);
    }

    @Test
    void callersCannotChangeStoredStateThroughWhatTheyPutOrGet() {
        Map<String, Object> given = configMap("db", "settings", map("a", "1"));
        cluster.put(given);
        @SuppressWarnings("unchecked")
        Map<String, Object> givenData = (Map<String, Object>) given.get("data");
        givenData.put("a", "changed through the argument");

        Map<String, Object> got = cluster.get(settings).orElseThrow();
        @SuppressWarnings("unchecked")
        Map<String, Object> gotData = (Map<String, Object>) got.get("data");
        gotData.put("a", "changed through get");
        @SuppressWarnings("unchecked")
        Map<String, Object> listed = (Map<String, Object>) cluster.list().get(0).get("data");
        listed.put("a", "changed through list");
        @SuppressWarnings("unchecked")
        Map<String, Object> listedByKind = (Map<String, Object>) cluster.list("ConfigMap").get(0).get("data");
        listedByKind.put("a", "changed through list(kind)");

        assertThat(at(cluster.get(settings).orElseThrow(), "data.a")).isEqualTo("1");
    }

    @Test
    void eventsAreRecordedInOrderAsEventObjectsAndCopied() {
        cluster.put(configMap("db", "settings", map()));
        cluster.recordEvent(settings, "Normal", "Started", "first", "test");
        cluster.setNow(T0.plusSeconds(1));
        cluster.recordEvent(ObjectRef.of("v1", "ConfigMap", "db", "missing"), "Warning", "Odd", "second", "test");

        List<Map<String, Object>> events = cluster.events();
        assertThat(events).extracting(e -> e.get("reason")).containsExactly("Started", "Odd");
        Map<String, Object> first = events.get(0);
        assertThat(first).containsEntry("kind", "Event").containsEntry("type", "Normal").containsEntry("message", "first");
        assertThat(at(first, "involvedObject.name")).isEqualTo("settings");
        assertThat(at(first, "involvedObject.uid")).isEqualTo(at(cluster.get(settings).orElseThrow(), "metadata.uid"));
        assertThat(at(first, "source.component")).isEqualTo("test");
        assertThat(at(events.get(1), "lastTimestamp")).isEqualTo("2026-03-01T09:00:01Z");
        assertThat(at(events.get(1), "involvedObject.uid")).isNull();

        events.get(0).put("reason", "tampered");
        assertThat(cluster.events().get(0).get("reason")).isEqualTo("Started");
        assertThat(cluster.list()).hasSize(1);
    }

    @Test
    void timeOnlyMovesForward() {
        cluster.setNow(T0.plusSeconds(10));

        assertThat(cluster.now()).isEqualTo(T0.plusSeconds(10));
        assertThatThrownBy(() -> cluster.setNow(T0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot go back");
    }
}
