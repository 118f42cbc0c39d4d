package dev.runbook.operator.kube;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MapsTest {
    @Test
    void theDiffOfEqualObjectsIsEmptyWhateverTheNumberTypes() {
        assertThat(Maps.diff(Map.of("a", 3, "b", Map.of("c", List.of(1, 2))), Map.of("a", 3L, "b", Map.of("c", List.of(1L, 2L)))))
                .isEmpty();
    }

    @Test
    void theDiffIsAMergePatch() {
        Map<String, Object> before = Map.of("phase", "Healthy", "keep", 1, "gone", "x",
                "nested", Map.of("a", 1, "b", 2), "list", List.of(1, 2));
        Map<String, Object> after = Map.of("phase", "Degraded", "keep", 1, "added", true,
                "nested", Map.of("a", 1, "b", 3), "list", List.of(1));

        Map<String, Object> expected = new HashMap<>();
        expected.put("phase", "Degraded");
        expected.put("added", true);
        expected.put("gone", null);
        expected.put("nested", Map.of("b", 3));
        expected.put("list", List.of(1));
        assertThat(Maps.diff(before, after)).isEqualTo(expected);
    }

    @Test
    void aValueBothSidesShareIsNotWalked() {
        Map<String, Object> shared = new java.util.AbstractMap<>() {
            @Override
            public java.util.Set<Entry<String, Object>> entrySet() {
                throw new AssertionError("a value both sides hold was walked");
            }
        };
        assertThat(Maps.diff(Map.of("spec", shared, "phase", "Healthy"), Map.of("spec", shared, "phase", "Degraded")))
                .isEqualTo(Map.of("phase", "Degraded"));
    }

    @Test
    void aMapReplacingAValueIsSentWhole() {
        assertThat(Maps.diff(Map.of("a", "text"), Map.of("a", Map.of("b", 1)))).isEqualTo(Map.of("a", Map.of("b", 1)));
    }

    @Test
    void copiesAreDeepAndModifiable() {
        Map<String, Object> original = Map.of("a", Map.of("b", List.of(Map.of("c", 1))));
        Map<String, Object> copy = Maps.copy(original);
        ((Map<String, Object>) copy.get("a")).put("x", 2);
        assertThat(original.get("a")).isEqualTo(Map.of("b", List.of(Map.of("c", 1))));
        assertThat(Maps.same(original, Maps.copy(original))).isTrue();
    }
}
