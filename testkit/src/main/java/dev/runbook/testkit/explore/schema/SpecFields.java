package dev.runbook.testkit.explore.schema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every field of a spec schema that a user can set: each property, at every depth, an object as a whole
 * as well as its properties (a user removes or replaces {@code spec.backup} as readily as one of its
 * fields), a map ({@code additionalProperties}) and a list as a whole. Read from the CRD, so that a field
 * added to it is explored without anything else to edit.
 */
public final class SpecFields {
    private SpecFields() {}

    /**
     * @param spec     the schema of {@code spec} ({@code CrdSchemas.specSchema})
     * @param examples the objects of the primary kind the bundle ships (samples, start state), for values
     */
    public static List<SpecField> of(Map<String, Object> spec, List<Map<String, Object>> examples) {
        List<SpecField> fields = new ArrayList<>();
        walk("spec", spec, true, examples, fields);
        return List.copyOf(fields);
    }

    @SuppressWarnings("unchecked")
    private static void walk(String path, Map<String, Object> schema, boolean required, List<Map<String, Object>> examples,
                             List<SpecField> into) {
        if (!path.equals("spec")) into.add(new SpecField(path, schema, required, valuesAt(path, examples)));
        if (!(schema.get("properties") instanceof Map<?, ?> properties)) return;
        List<Object> requiredNames = schema.get("required") instanceof List<?> list ? (List<Object>) list : List.of();
        for (Map.Entry<?, ?> property : new LinkedHashMap<>(properties).entrySet()) {
            if (!(property.getValue() instanceof Map<?, ?> child)) continue;
            walk(path + "." + property.getKey(), (Map<String, Object>) child, requiredNames.contains(property.getKey()), examples, into);
        }
    }

    /** The distinct values the examples hold at this path. */
    static List<Object> valuesAt(String path, List<Map<String, Object>> examples) {
        List<Object> values = new ArrayList<>();
        for (Map<String, Object> example : examples) {
            Object value = at(example, path.split("\\."));
            if (value != null && !values.contains(value)) values.add(value);
        }
        return values;
    }

    private static Object at(Object object, String[] steps) {
        Object node = object;
        for (String step : steps) {
            if (!(node instanceof Map<?, ?> map)) return null;
            node = map.get(step);
        }
        return node;
    }
}
