package dev.runbook.testkit.explore.schema;

import dev.runbook.testkit.explore.World;
import dev.runbook.rules.fact.Resource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;

/**
 * A value the API server would accept for a field, drawn by its schema: an enum's values, a boolean,
 * an integer at and inside its bounds (near the current value where the bounds are wide or open), a string
 * that matches its pattern and length (the bundle's own examples, the names of the objects in the world,
 * a time near now, a short word), a list or an object from the examples, and, where the field is optional,
 * its removal. Empty when no valid value can be drawn.
 */
public final class SpecValues {
    /** Removing the field: a {@code set} with a null value. */
    public static final Object REMOVE = new Object();
    /** How far an integer without a maximum goes past its minimum (or zero): a user edits by small steps. */
    private static final int OPEN_RANGE = 5;

    private SpecValues() {}

    public static Optional<Object> draw(SpecField field, World world, RandomGenerator random) {
        List<Object> candidates = candidates(field, world);
        if (candidates.isEmpty()) return Optional.empty();
        return Optional.of(candidates.get(random.nextInt(candidates.size())));
    }

    static List<Object> candidates(SpecField field, World world) {
        List<Object> values = new ArrayList<>();
        Map<String, Object> schema = field.schema();
        if (schema.get("enum") instanceof List<?> options) {
            values.addAll(options);
        } else {
            switch (field.type()) {
                case "boolean" -> { values.add(true); values.add(false); }
                case "integer" -> values.addAll(integers(schema, world.primary().str(field.path(), "")));
                case "string" -> values.addAll(strings(field, world));
                case "array", "object" -> values.addAll(field.examples());
                default -> { }
            }
        }
        if (schema.containsKey("default") && !values.contains(schema.get("default"))) values.add(schema.get("default"));
        if (!field.required()) values.add(REMOVE);
        return values;
    }

    private static List<Object> integers(Map<String, Object> schema, String current) {
        long min = schema.get("minimum") instanceof Number n ? n.longValue() : 0;
        long max = schema.get("maximum") instanceof Number n ? n.longValue() : min + OPEN_RANGE;
        List<Object> values = new ArrayList<>();
        for (long v : new long[] {min, min + 1, max}) if (v <= max && !values.contains(v)) values.add(v);
        if (current.matches("-?[0-9]{1,9}")) {
            long now = Long.parseLong(current);
            for (long v : new long[] {now - 1, now + 1}) if (v >= min && v <= max && !values.contains(v)) values.add(v);
        }
        return values;
    }

    private static List<Object> strings(SpecField field, World world) {
        List<Object> raw = new ArrayList<>(field.examples());
        // The names of what is there: a field that names an instance (a switchover's target) names a pod,
        // which the other candidates never match, so they count as much as the rest together.
        for (Resource pod : world.pods()) raw.add(pod.getName());
        raw.add(world.primary().getName());
        if ("date-time".equals(field.schema().get("format"))) {
            raw.add(world.now().minus(Duration.ofHours(1)).toString());
            raw.add(world.now().plus(Duration.ofHours(1)).toString());
        }
        raw.add("explore-" + world.step());
        raw.add("x");
        Pattern pattern = field.schema().get("pattern") instanceof String p ? Pattern.compile(p) : null;
        long maxLength = field.schema().get("maxLength") instanceof Number n ? n.longValue() : Long.MAX_VALUE;
        List<Object> values = new ArrayList<>();
        for (Object value : raw) {
            if (!(value instanceof String text) || text.length() > maxLength) continue;
            if (pattern != null && !pattern.matcher(text).find()) continue;
            if (!values.contains(text)) values.add(text);
        }
        List<Object> weighted = new ArrayList<>(values);
        for (Resource pod : world.pods()) if (values.contains(pod.getName())) weighted.add(pod.getName());
        return weighted;
    }
}
