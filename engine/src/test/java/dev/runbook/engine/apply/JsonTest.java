package dev.runbook.engine.apply;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Json.copy: a modifiable copy of JSON values only, naming where a value that is not JSON sits. */
class JsonTest {
    @Test
    void copiesDeeplyDroppingNullEntriesAndWritingTimesAsText() {
        Map<Object, Object> inner = new LinkedHashMap<>();
        inner.put(1, 'x');
        inner.put("gone", null);
        inner.put("at", Instant.parse("2026-11-30T09:00:00Z"));
        Map<String, Object> source = new HashMap<>(Map.of("spec", new ArrayList<>(List.of(inner, 3))));
        Map<String, Object> copy = Json.copyMap(source, "object");
        assertThat(copy).isEqualTo(Map.of("spec", List.of(Map.of("1", "x", "at", "2026-11-30T09:00:00Z"), 3)));
        @SuppressWarnings("unchecked")
        List<Object> spec = (List<Object>) copy.get("spec");
        spec.add("more");
        assertThat(source.get("spec")).asList().hasSize(2);
    }

    @Test
    void aValueThatIsNotJsonIsNamedByItsPath() {
        Map<String, Object> object = Map.of("spec", List.of(Map.of("ok", 1), Map.of("bad", new Object())));
        assertThatThrownBy(() -> Json.copy(object, "apply.object"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("apply.object.spec[1].bad: a Object is not a JSON value (use maps, lists, strings, numbers and booleans)");
        assertThatThrownBy(() -> Json.copy(new Object(), "setStatus.value"))
                .hasMessage("setStatus.value: a Object is not a JSON value (use maps, lists, strings, numbers and booleans)");
    }
}
