package dev.runbook.testkit.explore;

import dev.runbook.testkit.scenario.WorldChange;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fills the placeholders of a bundle's declared world changes: {@code {primary}} (the primary's
 * name), {@code {pod}} (a pod, chosen by the caller), {@code {step}} (the step's number) and
 * {@code {spec.PATH}} / {@code {status.PATH}} (a field of the primary). A change whose placeholder
 * has no value (no pod, an empty field) cannot be made now.
 */
public final class Placeholders {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z][A-Za-z0-9_.\\[\\]-]*)}");

    private Placeholders() {}

    /** Whether any of the changes mentions {@code {pod}}. */
    public static boolean mentionsPod(List<WorldChange> changes) {
        return changes.stream().anyMatch(c -> String.valueOf(c.name()).contains("{pod}")
                || String.valueOf(c.fields()).contains("{pod}"));
    }

    /** The changes with every placeholder filled, or empty when one has no value. */
    public static Optional<List<WorldChange>> fill(List<WorldChange> changes, World world, String pod) {
        List<WorldChange> filled = new ArrayList<>();
        for (WorldChange change : changes) {
            Map<String, Object> fields = new LinkedHashMap<>();
            for (Map.Entry<String, Object> entry : change.fields().entrySet()) {
                Optional<Object> value = fillValue(entry.getValue(), world, pod);
                if (value.isEmpty()) return Optional.empty();
                fields.put(entry.getKey(), value.get() == NULL ? null : value.get());
            }
            Optional<Object> name = fillValue(change.name(), world, pod);
            if (name.isEmpty()) return Optional.empty();
            filled.add(new WorldChange(change.type(), change.kind(), String.valueOf(name.get()), fields, change.line()));
        }
        return Optional.of(filled);
    }

    private static final Object NULL = new Object();

    private static Optional<Object> fillValue(Object value, World world, String pod) {
        if (value == null) return Optional.of(NULL);
        if (value instanceof String text) return fillText(text, world, pod).map(o -> o);
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> filled = new LinkedHashMap<>();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                Optional<Object> v = fillValue(entry.getValue(), world, pod);
                if (v.isEmpty()) return Optional.empty();
                filled.put(String.valueOf(entry.getKey()), v.get() == NULL ? null : v.get());
            }
            return Optional.of(filled);
        }
        if (value instanceof List<?> list) {
            List<Object> filled = new ArrayList<>();
            for (Object item : list) {
                Optional<Object> v = fillValue(item, world, pod);
                if (v.isEmpty()) return Optional.empty();
                filled.add(v.get() == NULL ? null : v.get());
            }
            return Optional.of(filled);
        }
        return Optional.of(value);
    }

    private static Optional<String> fillText(String text, World world, String pod) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = valueOf(m.group(1), world, pod);
            if (value == null || value.isEmpty()) return Optional.empty();
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return Optional.of(out.toString());
    }

    private static String valueOf(String name, World world, String pod) {
        return switch (name) {
            case "primary" -> world.primary().getName();
            case "pod" -> pod;
            case "step" -> String.valueOf(world.step());
            default -> name.startsWith("spec.") || name.startsWith("status.") ? world.primary().str(name, "") : null;
        };
    }

    /** Whether the text is a placeholder this class knows, for checking a bundle's file. */
    public static List<String> unknown(String text) {
        List<String> unknown = new ArrayList<>();
        Matcher m = PLACEHOLDER.matcher(text);
        while (m.find()) {
            String name = m.group(1);
            if (!List.of("primary", "pod", "step").contains(name) && !name.startsWith("spec.") && !name.startsWith("status.")) {
                unknown.add("{" + name + "}");
            }
        }
        return unknown;
    }
}
