package dev.runbook.operator.testkit;

import java.util.List;
import java.util.Map;

/** Reads fields of objects held as nested maps, for assertions. */
public final class Objects {
    private Objects() {}

    /** The value at a dotted path, or null. */
    @SuppressWarnings("unchecked")
    public static <T> T at(Map<String, ?> object, String path) {
        Object value = object;
        for (String step : path.split("\\.")) {
            if (!(value instanceof Map<?, ?> map)) return null;
            value = map.get(step);
        }
        return (T) value;
    }

    /** The condition of this type in status.conditions, or null. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> condition(Map<String, ?> object, String type) {
        List<Object> conditions = at(object, "status.conditions");
        if (conditions == null) return null;
        for (Object item : conditions) {
            if (item instanceof Map<?, ?> map && type.equals(map.get("type"))) return (Map<String, Object>) map;
        }
        return null;
    }
}
