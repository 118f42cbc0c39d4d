package dev.runbook.operator.kube;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LongLeavesTest {
    @Test
    void findsTheLongsInMapsAndListsAndGivesThemBackToACopyReadFromJson() {
        Map<String, Object> original = Map.of("spec", Map.of("grace", 30L, "replicas", 3,
                "tolerations", List.of(Map.of("seconds", 300L), Map.of("key", "x"))), "big", 5_000_000_000L);
        Object[][] paths = LongLeaves.of(original);
        assertThat(paths).isNotNull();
        assertThat(paths.length).isEqualTo(3);

        List<Object> tolerations = new ArrayList<>(List.of(new LinkedHashMap<>(Map.of("seconds", 300)), new LinkedHashMap<>(Map.of("key", "x"))));
        Map<String, Object> spec = new LinkedHashMap<>(Map.of("grace", 30, "replicas", 3, "tolerations", tolerations));
        Map<String, Object> readBack = new LinkedHashMap<>(Map.of("spec", spec, "big", 5_000_000_000L));
        assertThat(readBack).isNotEqualTo(original);

        assertThat(LongLeaves.restore(readBack, paths)).isSameAs(readBack).isEqualTo(original);
    }

    @Test
    void noLongsNoPathsAndAPathThatLeadsNowhereIsLeftAlone() {
        assertThat(LongLeaves.of(Map.of("a", 1, "b", List.of("x", 2.5)))).isNull();
        Map<String, Object> tree = new LinkedHashMap<>(Map.of("a", "text", "list", new ArrayList<>(List.of(1))));
        LongLeaves.restore(tree, new Object[][] {{"a"}, {"missing", "x"}, {"list", 5}, {"a", "deeper"}});
        assertThat(tree).isEqualTo(Map.of("a", "text", "list", List.of(1)));
        assertThat(LongLeaves.restore(tree, null)).isSameAs(tree);
    }
}
