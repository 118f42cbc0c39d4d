package dev.runbook.engine.template;

import dev.runbook.rules.fact.Values;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Parsed template output frozen with its repeated parts shared: equal to a plain frozen copy, key order included. */
class SharedTreesTest {
    /** What a parser builds: modifiable maps and lists, Integers, new strings. */
    private static Map<String, Object> parsed(String name, boolean otherOrder) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", new String(name));
        metadata.put("namespace", new String("soak"));
        Map<String, Object> probe = new LinkedHashMap<>();
        probe.put("path", new String("/readyz"));
        probe.put("periodSeconds", 2);
        Map<String, Object> spec = new LinkedHashMap<>();
        if (otherOrder) {
            spec.put("probe", probe);
            spec.put("ports", new ArrayList<>(List.of(5432, 8000)));
        } else {
            spec.put("ports", new ArrayList<>(List.of(5432, 8000)));
            spec.put("probe", probe);
        }
        spec.put("owner", new String(name));
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("metadata", metadata);
        object.put("spec", spec);
        object.put("none", null);
        return object;
    }

    @Test
    void isWhatAFrozenCopyIsKeyOrderAndNumberTypesIncluded() {
        Map<String, Object> built = parsed("pg-0001", false);
        Map<String, Object> shared = SharedTrees.frozen(built);
        assertThat(shared).isEqualTo(Values.frozenMap(built));
        assertThat(shared.toString()).isEqualTo(Values.frozenMap(built).toString());
        assertThat(((Map<?, ?>) ((Map<?, ?>) shared.get("spec")).get("probe")).get("periodSeconds")).isEqualTo(2L);
        assertThatThrownBy(() -> shared.put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((List<Object>) ((Map<?, ?>) shared.get("spec")).get("ports")).add(1))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void theSamePartsOfTwoObjectsAreOneObject() {
        Map<String, Object> a = SharedTrees.frozen(parsed("pg-0001", false));
        Map<String, Object> b = SharedTrees.frozen(parsed("pg-0002", false));
        Map<?, ?> specA = (Map<?, ?>) a.get("spec"), specB = (Map<?, ?>) b.get("spec");

        assertThat(specA).isNotSameAs(specB).isNotEqualTo(specB);
        assertThat(specA.get("probe")).isSameAs(specB.get("probe"));
        assertThat(specA.get("ports")).isSameAs(specB.get("ports"));
        assertThat(((Map<?, ?>) a.get("metadata")).get("namespace")).isSameAs(((Map<?, ?>) b.get("metadata")).get("namespace"));
        assertThat(SharedTrees.frozen(parsed("pg-0001", false))).isSameAs(a);
    }

    @Test
    void aMapIsSharedOnlyWithOneWhoseKeysComeInTheSameOrder() {
        Map<String, Object> a = SharedTrees.frozen(parsed("pg-0003", false));
        Map<String, Object> reordered = SharedTrees.frozen(parsed("pg-0003", true));

        assertThat(reordered).isEqualTo(a).isNotSameAs(a);
        assertThat(reordered.get("spec").toString()).isEqualTo(Values.frozenMap(parsed("pg-0003", true)).get("spec").toString());
        assertThat(((Map<?, ?>) reordered.get("spec")).get("probe")).isSameAs(((Map<?, ?>) a.get("spec")).get("probe"));
    }
}
