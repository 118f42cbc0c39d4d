package dev.runbook.engine.apply;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON-like values a Kubernetes object is made of (maps with string keys, lists, strings,
 * numbers, booleans), copied, compared, hashed and written the way actions and the simulated cluster
 * need.
 */
public final class Json {
    private Json() {}

    /**
     * A deep, modifiable copy holding only JSON values: map keys become strings, map entries whose
     * value is null are dropped (absent and null mean the same in an object), an {@link Instant} or a
     * {@link Date} becomes its RFC 3339 text, a {@link Character} a string.
     *
     * @throws IllegalArgumentException for any other kind of value, naming where it is
     */
    public static Object copy(Object value, String where) {
        if (value == null || value instanceof String || value instanceof Boolean || value instanceof Number) {
            return value;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> {
                if (v != null) copy.put(String.valueOf(k), copy(v, where + "." + k));
            });
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) copy.add(copy(list.get(i), where + "[" + i + "]"));
            return copy;
        }
        if (value instanceof Instant instant) return instant.toString();
        if (value instanceof Date date) return date.toInstant().toString();
        if (value instanceof Character c) return c.toString();
        throw new IllegalArgumentException(where + ": a " + value.getClass().getSimpleName()
                + " is not a JSON value (use maps, lists, strings, numbers and booleans)");
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> copyMap(Map<String, ?> map, String where) {
        return (Map<String, Object>) copy(map, where);
    }

    /**
     * Whether two values mean the same: numbers by value (3, 3L and 3.0 are the same), maps by their
     * entries regardless of order (an entry holding null is the same as no entry), lists element by
     * element in order.
     */
    public static boolean same(Object a, Object b) {
        return dev.runbook.rules.fact.Values.same(a, b);
    }


    /** A text that is equal for values that are {@link #same}: keys sorted, numbers normalised. */
    public static String canonical(Object value) {
        StringBuilder out = new StringBuilder();
        canonical(value, out);
        return out.toString();
    }

    private static void canonical(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Number n) {
            out.append(dev.runbook.rules.fact.Values.decimal(n).stripTrailingZeros().toPlainString());
        } else if (value instanceof Boolean) {
            out.append(value);
        } else if (value instanceof Map<?, ?> map) {
            Map<String, Object> sorted = new TreeMap<>();
            map.forEach((k, v) -> {
                if (v != null) sorted.put(String.valueOf(k), v);
            });
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : sorted.entrySet()) {
                if (!first) out.append(',');
                first = false;
                quote(e.getKey(), out);
                out.append(':');
                canonical(e.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) out.append(',');
                canonical(list.get(i), out);
            }
            out.append(']');
        } else {
            quote(value.toString(), out);
        }
    }

    private static void quote(String text, StringBuilder out) {
        out.append('"');
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') out.append('\\');
            out.append(c);
        }
        out.append('"');
    }

    /** The first ten hex digits of the SHA-256 of the value's canonical text. */
    public static String hash(Object value) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical(value).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, 10);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /**
     * The map under {@code key} as the caller's own: a shallow copy of it (without its null entries,
     * as {@link #copy} leaves them out) put in its place, or a new map when absent. What the copy holds
     * is shared with the map it was copied from; only the copy itself may be changed.
     *
     * @throws IllegalStateException when the value under {@code key} is not a map
     */
    public static Map<String, Object> childCopy(Map<String, Object> parent, String key, String where) {
        Map<String, Object> copy = shallowCopy(child(parent, key, where));
        parent.put(key, copy);
        return copy;
    }

    /** The map under {@code key}, created when absent. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> child(Map<String, Object> parent, String key, String where) {
        Object value = parent.get(key);
        if (value == null) {
            Map<String, Object> created = new LinkedHashMap<>();
            parent.put(key, created);
            return created;
        }
        if (!(value instanceof Map<?, ?>)) {
            throw new IllegalStateException(where + " is a " + value.getClass().getSimpleName() + ", not an object");
        }
        return (Map<String, Object>) value;
    }

    /** The map under {@code key}, or null when absent or not a map. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> mapAt(Map<String, Object> parent, String key) {
        return parent != null && parent.get(key) instanceof Map<?, ?> map ? (Map<String, Object>) map : null;
    }

    public static String stringAt(Map<String, Object> parent, String key) {
        Object value = parent == null ? null : parent.get(key);
        return value == null ? null : value.toString();
    }

    /**
     * Writes {@code value} at {@code steps} below {@code root}, creating maps on the way; null removes.
     * {@code root} is the caller's own and is changed in place; each map and list below it that the
     * path goes through is first replaced in its parent by a shallow copy, so that what {@code root}
     * shares with another object (the one it was copied from) is never changed.
     */
    @SuppressWarnings("unchecked")
    public static void write(Map<String, Object> root, List<String> steps, Object value, String what) {
        Object level = root;
        for (int i = 0; i < steps.size(); i++) {
            String step = steps.get(i);
            boolean last = i == steps.size() - 1;
            if (step.startsWith("[")) {
                int index = Integer.parseInt(step.substring(1, step.length() - 1).trim());
                if (!(level instanceof List<?> list) || index < 0 || index >= list.size()) {
                    throw new IllegalStateException(what + ": there is no element " + step + " to write");
                }
                List<Object> items = (List<Object>) list;
                if (last) {
                    if (value == null) items.remove(index); else items.set(index, value);
                    return;
                }
                if (items.get(index) == null) {
                    if (value == null) return;
                    items.set(index, new LinkedHashMap<String, Object>());
                } else {
                    items.set(index, containerCopy(items.get(index)));
                }
                level = items.get(index);
            } else {
                if (!(level instanceof Map<?, ?> map)) {
                    throw new IllegalStateException(what + ": cannot write '" + step + "' inside a "
                            + (level == null ? "null" : level.getClass().getSimpleName()));
                }
                Map<String, Object> fields = (Map<String, Object>) map;
                if (last) {
                    if (value == null) fields.remove(step); else fields.put(step, value);
                    return;
                }
                Object next = fields.get(step);
                if (next == null && value == null) return; // removing below a field that is not there
                if (next == null && !steps.get(i + 1).startsWith("[")) {
                    next = new LinkedHashMap<String, Object>();
                    fields.put(step, next);
                } else if (next != null) {
                    next = containerCopy(next);
                    fields.put(step, next);
                }
                level = next;
            }
        }
    }

    /** A map or list copied one level deep, to be written in; any other value as it is. */
    private static Object containerCopy(Object value) {
        if (value instanceof Map<?, ?> map) return shallowCopy(map);
        if (value instanceof List<?> list) return new ArrayList<>(list);
        return value;
    }

    /**
     * The map's entries in a new, modifiable map, keys as strings, without the entries holding null:
     * {@link #copy}'s rule one level deep. The values are the map's own, shared, not copied.
     */
    public static Map<String, Object> shallowCopy(Map<?, ?> map) {
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((k, v) -> {
            if (v != null) copy.put(String.valueOf(k), v);
        });
        return copy;
    }
}
