package dev.runbook.testkit.explore.schema;

import java.util.List;
import java.util.Map;

/**
 * One field of the primary's spec as its CRD declares it: where it is, its schema (type, enum, bounds,
 * pattern, default), whether its parent requires it, and the values the bundle's own samples give it.
 *
 * @param path     dotted, from the object's root: {@code spec.backup.retention.count}
 * @param examples values the bundle's samples and start state give this field, for values that a
 *                 pattern alone would not make meaningful (an image, a store's path)
 */
public record SpecField(String path, Map<String, Object> schema, boolean required, List<Object> examples) {
    public SpecField {
        schema = Map.copyOf(schema);
        examples = List.copyOf(examples);
    }

    public String type() {
        Object type = schema.get("type");
        return type == null ? "" : String.valueOf(type);
    }
}
