package dev.runbook.rules.fact;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The conversions and comparisons facts and actions rely on; the walkers are split per type for the JIT. */
class ValuesTest {
    @Test
    void theApiServersTimestampsReadAsTheGeneralParserReadsThem() {
        for (String text : List.of("2026-11-30T09:00:00Z", "1970-01-01T00:00:00Z", "2024-02-29T23:59:59Z",
                "0001-01-01T00:00:00Z", " 2026-11-30T09:00:00Z ")) {
            assertThat(Values.asInstant(text, "t")).isEqualTo(OffsetDateTime.parse(text.trim()).toInstant());
        }
        // Other forms go to the general parser.
        assertThat(Values.asInstant("2026-11-30T09:00:00.5Z", "t")).isEqualTo(Instant.parse("2026-11-30T09:00:00.500Z"));
        assertThat(Values.asInstant("2026-11-30T10:00:00+01:00", "t")).isEqualTo(Instant.parse("2026-11-30T09:00:00Z"));
    }

    @Test
    void anImpossibleTimestampInTheApiServersFormIsRefusedNamingTheField() {
        for (String text : List.of("2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-30T24:00:00Z",
                "2026-11-30T09:00:60Z", "2026-1a-30T09:00:00Z")) {
            assertThatThrownBy(() -> Values.asInstant(text, "status.since"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("status.since: '" + text + "' is not a timestamp");
        }
    }

    @Test
    void sameComparesNumbersByValueMapsByEntriesAndListsInOrder() {
        assertThat(Values.same(3, 3L)).isTrue();
        assertThat(Values.same(3L, 3.0)).isTrue();
        assertThat(Values.same(new BigDecimal("3.10"), 3.1)).isTrue();
        assertThat(Values.same(3, 4L)).isFalse();
        Map<String, Object> withNull = new HashMap<>(Map.of("a", 1));
        withNull.put("b", null);
        assertThat(Values.same(withNull, Map.of("a", 1L))).isTrue();
        assertThat(Values.same(Map.of("a", 1L), withNull)).isTrue();
        assertThat(Values.same(Map.of("a", 1, "b", 2), Map.of("a", 1))).isFalse();
        assertThat(Values.same(Map.of("a", 1), Map.of("a", 1, "b", 2))).isFalse();
        assertThat(Values.same(List.of(1, Map.of("x", List.of("y"))), List.of(1L, Map.of("x", List.of("y"))))).isTrue();
        assertThat(Values.same(List.of(1, 2), List.of(2, 1))).isFalse();
        assertThat(Values.same(List.of(1), List.of(1, 2))).isFalse();
        assertThat(Values.same("3", 3)).isFalse();
        assertThat(Values.same(null, null)).isTrue();
        assertThat(Values.same(null, "x")).isFalse();
    }

    @Test
    void frozenNormalisesLeavesAllTheWayDown() {
        Map<Object, Object> inner = new LinkedHashMap<>();
        inner.put(1, 2);
        inner.put("f", 1.5f);
        inner.put("d", new Date(0));
        Object frozen = Values.frozen(Map.of("list", new ArrayList<>(List.of(inner, (short) 7))));
        assertThat(frozen).isEqualTo(Map.of("list", List.of(Map.of("1", 2L, "f", 1.5, "d", "1970-01-01T00:00:00Z"), 7L)));
        assertThat(Values.frozen(frozen)).isSameAs(frozen);
        assertThatThrownBy(() -> Values.frozen(Map.of("a", List.of(new Object()))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a java.lang.Object cannot be a value");
    }

    @Test
    void thawedIsADeepModifiableCopy() {
        Map<String, Object> frozen = Values.frozenMap(Map.of("a", List.of(Map.of("b", 1))));
        Map<String, Object> thawed = Values.thawed(frozen);
        assertThat(thawed).isEqualTo(frozen);
        @SuppressWarnings("unchecked")
        Map<String, Object> item = (Map<String, Object>) ((List<Object>) thawed.get("a")).get(0);
        item.put("c", 2);
        ((List<Object>) thawed.get("a")).add("more");
        assertThat(frozen).isEqualTo(Map.of("a", List.of(Map.of("b", 1L))));
        assertThat(thawed).isEqualTo(Map.of("a", List.of(Map.of("b", 1L, "c", 2), "more")));
    }
}
