package dev.runbook.engine.template;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The render cache's exact key of a primary: equal bytes only for equal trees, types of numbers included. */
class ValueBytesTest {
    private static Map<String, Object> ordered(Object... entries) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < entries.length; i += 2) map.put((String) entries[i], entries[i + 1]);
        return map;
    }

    @Test
    void equalTreesGiveEqualBytes() {
        Map<String, Object> a = ordered("metadata", ordered("name", "pg", "labels", ordered("a", "b")),
                "spec", ordered("instances", 3L, "ratio", 0.5, "on", true, "off", false, "none", null,
                        "list", new ArrayList<>(List.of("x", 1L, List.of()))));
        Map<String, Object> b = ordered("metadata", ordered("name", "pg", "labels", ordered("a", "b")),
                "spec", ordered("instances", 3L, "ratio", 0.5, "on", true, "off", false, "none", null,
                        "list", List.of("x", 1L, List.of())));
        assertThat(ValueBytes.of(a)).isEqualTo(ValueBytes.of(b)).isNotNull();
    }

    @Test
    void valuesThatAreNotEqualGiveOtherBytes() {
        List<Object> values = Arrays.asList(null, "", "3", 3L, 3, 3.0, -3L, 'c', "c", true, false, "true",
                new BigInteger("3"), new BigDecimal("3"), new BigDecimal("3.0"), List.of(), Map.of(), List.of(""),
                ordered("", null), ordered("a", 1L), ordered("a", 2L), ordered("b", 1L), List.of(1L, 2L), List.of(2L, 1L),
                "é", "\u20ac", "\u00e9\u0000", "a\u0100", 1L << 40, Long.MIN_VALUE, Double.NaN, -0.0, 0.0);
        for (int i = 0; i < values.size(); i++) {
            for (int j = 0; j < values.size(); j++) {
                if (i == j) continue;
                assertThat(ValueBytes.of(values.get(i))).as("%s against %s", values.get(i), values.get(j))
                        .isNotEqualTo(ValueBytes.of(values.get(j)));
            }
        }
    }

    @Test
    void textsTheSameOnlyInTheirLowBytesDiffer() {
        assertThat(ValueBytes.of("\u0141")).isNotEqualTo(ValueBytes.of("A")); // 0x141 and 0x41
        assertThat(ValueBytes.of(List.of("ab", "c"))).isNotEqualTo(ValueBytes.of(List.of("a", "bc")));
    }

    @Test
    void anotherLeafTypeHasNoBytes() {
        assertThat(ValueBytes.of(ordered("at", java.time.Instant.EPOCH))).isNull();
        assertThat(ValueBytes.of(Map.of(1, "key not a string"))).isNull();
    }

    @Test
    void latin1TextTakesOneByteACharacter() {
        StringBuilder long1 = new StringBuilder();
        for (int i = 0; i < 1000; i++) long1.append('x');
        assertThat(ValueBytes.of(ordered("text", long1.toString()))).hasSizeLessThan(1020);
    }
}
