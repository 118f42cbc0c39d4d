package dev.runbook.rules.fact;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads a value out of nested maps and lists by a dotted path such as {@code spec.backup.schedule}
 * or {@code status.members[0].name}. A missing step yields {@code null}, never an exception: rules
 * test for absence with defaults instead of guarding every level.
 */
public final class ObjectPath {
    private ObjectPath() {}

    public static Object read(Object root, String path) {
        if (path != null && path.indexOf('[') < 0 && !path.isBlank()) return readKeys(root, path);
        Object current = root;
        for (String step : steps(path)) {
            if (current == null) {
                return null;
            }
            current = stepInto(current, step);
        }
        return current;
    }

    /**
     * {@link #read} of a path of map keys only ({@code spec.storage.size}), the common case in rule
     * conditions, walked in place: conditions read paths on every evaluation.
     */
    private static Object readKeys(Object root, String path) {
        Object current = root;
        int start = 0;
        while (current != null) {
            int dot = path.indexOf('.', start);
            String key = dot < 0 ? path.substring(start) : path.substring(start, dot);
            if (!key.isEmpty()) current = current instanceof Map<?, ?> map ? map.get(key) : null;
            if (dot < 0) return current;
            start = dot + 1;
        }
        return null;
    }

    /** Splits {@code a.b[2].c} into {@code a, b, [2], c}. */
    public static List<String> steps(String path) {
        if (path == null || path.isBlank()) {
            throw new IllegalArgumentException("an object path must not be empty: use e.g. spec.instances");
        }
        List<String> steps = new ArrayList<>();
        for (String part : path.split("\\.")) {
            int bracket = part.indexOf('[');
            String key = bracket < 0 ? part : part.substring(0, bracket);
            if (!key.isEmpty()) {
                steps.add(key);
            }
            while (bracket >= 0) {
                int close = part.indexOf(']', bracket);
                if (close < 0) {
                    throw new IllegalArgumentException("'" + path + "' has an unclosed '[': use e.g. status.members[0].name");
                }
                steps.add(part.substring(bracket, close + 1));
                bracket = part.indexOf('[', close);
            }
        }
        return steps;
    }

    /** The inverse of {@link #steps}: {@code [a, b, [2], c]} becomes {@code a.b[2].c}. */
    public static String join(List<String> steps) {
        StringBuilder path = new StringBuilder();
        for (String step : steps) {
            if (path.length() > 0 && !step.startsWith("[")) path.append('.');
            path.append(step);
        }
        return path.toString();
    }

    private static Object stepInto(Object current, String step) {
        if (step.startsWith("[")) {
            if (!(current instanceof List<?> list)) {
                return null;
            }
            int index;
            try {
                index = Integer.parseInt(step.substring(1, step.length() - 1).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + step + "' is not a list index: use e.g. [0]");
            }
            return index >= 0 && index < list.size() ? list.get(index) : null;
        }
        return current instanceof Map<?, ?> map ? map.get(step) : null;
    }
}
