package dev.runbook.rules.fact;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What Values.frozen makes: deep, unmodifiable, equal to any map or list of the same entries, frozen once. */
class FrozenTest {
    static Map<String, Object> object() {
        Map<String, Object> labels = new LinkedHashMap<>(Map.of("app", "pg"));
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", "pg-1");
        metadata.put("labels", labels);
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("metadata", metadata);
        object.put("spec", new LinkedHashMap<>(Map.of("replicas", 3, "ports", new ArrayList<>(List.of(5432, 8000)))));
        return object;
    }

    @Test
    void aFrozenValueIsADeepCopyEqualToTheOriginalWithWholeNumbersAsLongs() {
        Map<String, Object> original = object();
        Map<String, Object> frozen = Values.frozenMap(original);

        assertThat(frozen).isEqualTo(Values.thawed(frozen)).hasSameHashCodeAs(Values.thawed(frozen));
        assertThat(Values.thawed(frozen)).isEqualTo(frozen);
        assertThat(new ArrayList<>(frozen.keySet())).containsExactly("metadata", "spec");
        assertThat(((Map<?, ?>) frozen.get("spec")).get("replicas")).isEqualTo(3L);
        assertThat(((Map<?, ?>) frozen.get("spec")).get("ports")).isEqualTo(List.of(5432L, 8000L));
        ((Map<String, Object>) original.get("metadata")).put("name", "changed");
        assertThat(((Map<?, ?>) frozen.get("metadata")).get("name")).as("a copy, not a view").isEqualTo("pg-1");
        assertThat(frozen.toString()).isEqualTo(Values.thawed(frozen).toString());
    }

    @Test
    @SuppressWarnings("unchecked")
    void nothingInAFrozenValueCanBeChanged() {
        Map<String, Object> frozen = Values.frozenMap(object());
        Map<String, Object> metadata = (Map<String, Object>) frozen.get("metadata");
        List<Object> ports = (List<Object>) ((Map<String, Object>) frozen.get("spec")).get("ports");

        assertThatThrownBy(() -> frozen.put("status", Map.of())).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> metadata.remove("name")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> frozen.entrySet().iterator().next().setValue("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> frozen.keySet().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ports.add(1L)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ports.set(0, 1L)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> frozen.putIfAbsent("x", 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void freezingAFrozenValueAgainReturnsItAsItIsButAnyOtherUnmodifiableMapIsCopied() {
        Map<String, Object> frozen = Values.frozenMap(object());
        assertThat(Values.frozenMap(frozen)).isSameAs(frozen);
        assertThat(Values.frozen(frozen.get("spec"))).isSameAs(frozen.get("spec"));

        // Someone else's unmodifiable view may wrap a map that still changes: it is copied.
        Map<String, Object> inner = new LinkedHashMap<>(Map.of("a", 1));
        Map<String, Object> view = Collections.unmodifiableMap(Map.of("inner", inner));
        Map<String, Object> copy = Values.frozenMap(view);
        inner.put("a", 2);
        assertThat(copy).isEqualTo(Map.of("inner", Map.of("a", 1L)));
    }

    @Test
    @SuppressWarnings("unchecked")
    void frozenInPlaceIsWhatAFrozenCopyWouldBeWithoutTheCopy() {
        Map<String, Object> built = object();
        Map<String, Object> inPlace = Values.frozenInPlace(built);

        Map<String, Object> copied = Values.frozenMap(object());
        assertThat(inPlace).isEqualTo(copied).hasSameHashCodeAs(copied);
        assertThat(inPlace.toString()).isEqualTo(copied.toString());
        assertThat(((Map<?, ?>) inPlace.get("spec")).get("ports")).isEqualTo(List.of(5432L, 8000L));
        // the maps built are the ones the frozen views show: their leaves were turned in place
        assertThat(((Map<?, ?>) built.get("spec")).get("replicas")).isEqualTo(3L);
        assertThat(((Map<?, ?>) built.get("spec")).get("ports")).isInstanceOf(List.class).isNotInstanceOf(ArrayList.class);
        // and freezing it again, as a fact does, copies nothing either
        assertThat(Values.frozenMap(inPlace)).isSameAs(inPlace);
        assertThat(Values.frozen(inPlace.get("metadata"))).isSameAs(inPlace.get("metadata"));

        Map<String, Object> metadata = (Map<String, Object>) inPlace.get("metadata");
        List<Object> ports = (List<Object>) ((Map<String, Object>) inPlace.get("spec")).get("ports");
        assertThatThrownBy(() -> inPlace.put("status", Map.of())).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> metadata.remove("name")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((Map<String, Object>) metadata.get("labels")).put("a", "b"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ports.set(0, 1L)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void frozenInPlaceCopiesWhatItCannotFreezeInPlace() {
        // Another class of map or list (which may refuse a change, or be held elsewhere), or keys that are not strings.
        Map<String, Object> inner = new LinkedHashMap<>(Map.of("a", 1));
        Map<Object, Object> numbered = new LinkedHashMap<>(Map.of(1, "one"));
        Map<String, Object> built = new LinkedHashMap<>();
        built.put("view", Collections.unmodifiableMap(Map.of("inner", inner)));
        built.put("list", List.of(1, 2));
        built.put("numbered", numbered);

        Map<String, Object> frozen = Values.frozenInPlace(built);

        inner.put("a", 2);
        assertThat(frozen).isEqualTo(Map.of("view", Map.of("inner", Map.of("a", 1L)), "list", List.of(1L, 2L),
                "numbered", Map.of("1", "one")));
        assertThat(numbered).as("not changed: copied").containsEntry(1, "one");
        assertThatThrownBy(() -> Values.frozenInPlace(new LinkedHashMap<>(Map.of("x", new Object()))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** A small map is kept as arrays, a larger one as a view of its map: both behave as the map they were made from. */
    @Test
    void smallAndLargeFrozenMapsBehaveAsTheMapsTheyWereMadeFrom() {
        for (int size : List.of(0, 1, 5, 16, 17, 40)) {
            Map<String, Object> original = new LinkedHashMap<>();
            for (int i = size - 1; i >= 0; i--) original.put("key-" + i, i % 3 == 0 ? null : (long) i);
            Map<String, Object> frozen = Values.frozenMap(original);

            assertThat(frozen).as("size %d", size).isEqualTo(original).hasSameHashCodeAs(original).hasSize(size);
            assertThat(original).isEqualTo(frozen);
            assertThat(new ArrayList<>(frozen.keySet())).isEqualTo(new ArrayList<>(original.keySet()));
            assertThat(new ArrayList<>(frozen.values())).isEqualTo(new ArrayList<>(original.values()));
            assertThat(new ArrayList<>(frozen.entrySet())).isEqualTo(new ArrayList<>(original.entrySet()));
            assertThat(frozen.toString()).isEqualTo(original.toString());
            for (int i = 0; i < size; i++) {
                String key = "key-" + i;
                assertThat(frozen.containsKey(key)).isTrue();
                assertThat(frozen.keySet()).contains(key);
                assertThat(frozen.get(key)).isEqualTo(original.get(key));
                assertThat(frozen.getOrDefault(key, "fallback")).isEqualTo(original.getOrDefault(key, "fallback"));
            }
            assertThat(frozen.containsKey("absent")).isFalse();
            assertThat(frozen.get("absent")).isNull();
            assertThat(frozen.getOrDefault("absent", "fallback")).isEqualTo("fallback");
            Map<String, Object> seen = new LinkedHashMap<>();
            frozen.forEach(seen::put);
            assertThat(new ArrayList<>(seen.entrySet())).isEqualTo(new ArrayList<>(original.entrySet()));

            if (size == 0) continue;
            assertThatThrownBy(() -> frozen.put("x", 1L)).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> frozen.remove("key-1")).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> frozen.entrySet().iterator().next().setValue(1L)).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> frozen.keySet().clear()).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> frozen.values().clear()).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> frozen.replaceAll((k, v) -> 1L)).isInstanceOf(UnsupportedOperationException.class);
            assertThat(frozen).as("unchanged by the refusals").isEqualTo(original);
        }
    }

    /**
     * Conditions and templates read an object's values, parameters and a template's variables
     * without knowing their type, and the engine checks what MVEL may call on them against the
     * value types alone: anything else (a Class a rule obtained, the engine's own objects) is
     * refused where it would enter, naming its type.
     */
    @Test
    void onlyStringsNumbersBooleansListsAndMapsAreValues() {
        Map<String, Object> object = object();
        object.put("type", String.class);
        assertThatThrownBy(() -> Values.frozenMap(object)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a java.lang.Class cannot be a value");
        assertThatThrownBy(() -> new Params(Map.of("p", new Object()))).hasMessageContaining("java.lang.Object cannot be a value");
        assertThatThrownBy(() -> dev.runbook.rules.action.Actions.applyTemplate("t.yaml", Map.of("v", Thread.currentThread())))
                .hasMessageContaining("java.lang.Thread cannot be a value");
        assertThat(Values.frozenMap(Map.of("values", List.of("a", 1, 2.5, true, 'c', new java.math.BigDecimal("1.5")))))
                .containsEntry("values", List.of("a", 1L, 2.5, true, 'c', new java.math.BigDecimal("1.5")));
    }
}
