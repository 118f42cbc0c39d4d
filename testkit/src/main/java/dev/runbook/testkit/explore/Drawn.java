package dev.runbook.testkit.explore;

import dev.runbook.testkit.scenario.WorldChange;

import java.time.Duration;
import java.util.List;

/**
 * A fault as drawn: what it does in words, how far it moves the clock, and its world changes.
 *
 * @param advance   time that passes before the changes, on top of the step's own (a clock jump)
 * @param immediate the next cycle comes at once: the step lets no time of its own pass (a restart)
 */
public record Drawn(String description, Duration advance, boolean immediate, List<WorldChange> changes) {
    public Drawn {
        changes = List.copyOf(changes);
    }

    public static Drawn of(String description, WorldChange... changes) {
        return new Drawn(description, Duration.ZERO, false, List.of(changes));
    }

    /** A change of the short form: {@code podNotReady: NAME}, {@code deletePod: NAME}, {@code jobFails: NAME}. */
    public static WorldChange shortForm(String type, String kind, String name) {
        return new WorldChange(type, kind, name, java.util.Map.of(), 0);
    }

    /** {@code set: {kind, name, path, value}}. */
    public static WorldChange set(String kind, String name, String path, Object value) {
        java.util.Map<String, Object> fields = new java.util.LinkedHashMap<>();
        fields.put("path", path);
        fields.put("value", value);
        return new WorldChange("set", kind, name, fields, 0);
    }

    /** {@code annotate: {kind, name, key, value}}. */
    public static WorldChange annotate(String kind, String name, String key, String value) {
        java.util.Map<String, Object> fields = new java.util.LinkedHashMap<>();
        fields.put("key", key);
        fields.put("value", value);
        return new WorldChange("annotate", kind, name, fields, 0);
    }
}
