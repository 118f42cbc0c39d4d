package dev.runbook.rules.fact;

import dev.runbook.rules.function.Durations;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Conversions from the loosely typed values of a parsed Kubernetes object (strings, numbers,
 * booleans, maps, lists) to the types rules compare against. A value of the wrong type is an
 * error naming the field, because a silent default would hide a broken object or rule.
 */
public final class Values {
    private Values() {}

    /**
     * A field that must be one value (a name, a namespace): its text, or null when absent.
     *
     * @throws IllegalArgumentException naming the field when it is a list or a mapping
     */
    public static String scalarString(Object value, String field) {
        if (value instanceof Map<?, ?> || value instanceof java.util.Collection<?>) {
            throw new IllegalArgumentException(field + ": expected a single value, not "
                    + (value instanceof Map<?, ?> ? "a mapping" : "a list") + " (" + value + ")");
        }
        return asString(value);
    }

    public static String asString(Object value) {
        if (value == null) return null;
        if (value instanceof Date date) return date.toInstant().toString();
        return value.toString();
    }

    public static Long asLong(Object value, String field) {
        if (value == null) return null;
        if (value instanceof Number number) {
            BigDecimal decimal;
            try {
                decimal = new BigDecimal(number.toString());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(field + ": " + value + " is not a whole number");
            }
            if (decimal.stripTrailingZeros().scale() > 0) {
                throw new IllegalArgumentException(field + ": " + value + " is not a whole number");
            }
            try {
                return decimal.longValueExact();
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException(field + ": " + value + " is too large for a whole number");
            }
        }
        try {
            return Long.parseLong(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field + ": '" + value + "' is not a whole number");
        }
    }

    /** {@code value} as an int, or an error naming the field when it does not fit. */
    static int toInt(long value, String field) {
        if (value != (int) value) {
            throw new IllegalArgumentException(field + ": " + value + " is too large for a whole number of type int");
        }
        return (int) value;
    }

    public static Double asDouble(Object value, String field) {
        if (value == null) return null;
        if (value instanceof Number number) return number.doubleValue();
        try {
            return Double.parseDouble(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field + ": '" + value + "' is not a number");
        }
    }

    public static Boolean asBoolean(Object value, String field) {
        if (value == null) return null;
        if (value instanceof Boolean bool) return bool;
        String text = value.toString().trim();
        if (text.equalsIgnoreCase("true")) return true;
        if (text.equalsIgnoreCase("false")) return false;
        throw new IllegalArgumentException(field + ": '" + value + "' is not true or false");
    }

    public static Instant asInstant(Object value, String field) {
        if (value == null) return null;
        if (value instanceof Instant instant) return instant;
        if (value instanceof Date date) return date.toInstant();
        try {
            return OffsetDateTime.parse(value.toString().trim()).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(field + ": '" + value
                    + "' is not a timestamp: use RFC 3339, e.g. 2026-11-30T09:00:00Z");
        }
    }

    public static Duration asDuration(Object value, String field) {
        if (value == null) return null;
        if (value instanceof Duration duration) return duration;
        if (value instanceof Number number) return Duration.ofSeconds(number.longValue());
        try {
            return Durations.parse(value.toString());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + ": " + e.getMessage());
        }
    }

    /**
     * A deep, unmodifiable copy, so that no rule can change what was observed. A map or list this
     * method made is returned as it is: it is frozen all the way down already. Its leaves are
     * strings, booleans, characters, whole numbers (Long, BigInteger), decimals (Double,
     * BigDecimal) and null, as parsed YAML and JSON hold: rules' conditions and templates read these
     * values without knowing their type, and the engine checks what they may call on them on these
     * types alone (docs/security.md), so nothing else may hide in a value.
     *
     * @throws IllegalArgumentException for a value of any other type
     */
    @SuppressWarnings("unchecked")
    public static <T> T frozen(T value) {
        if (Frozen.is(value)) return value;
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(String.valueOf(k), frozen(v)));
            return (T) Frozen.map(copy);
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(v -> copy.add(frozen(v)));
            return (T) Frozen.list(copy);
        }
        if (value instanceof Date date) {
            return (T) date.toInstant().toString();
        }
        // One type per kind of number, so that 3 from a YAML file, 3 from count() and 3 from
        // integer() are the same value in an action's form and never conflict with each other.
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return (T) Long.valueOf(((Number) value).longValue());
        }
        if (value instanceof Float f) {
            return (T) Double.valueOf(f.doubleValue());
        }
        if (value == null || value instanceof String || value instanceof Boolean || value instanceof Long
                || value instanceof Double || value instanceof java.math.BigInteger || value instanceof BigDecimal
                || value instanceof Character) {
            return value;
        }
        throw new IllegalArgumentException("a " + value.getClass().getName() + " cannot be a value of an object, a status "
                + "field or a template variable: use a string, a number, a boolean, a list or a map");
    }

    /**
     * {@code built} itself made deeply unmodifiable: its values frozen in place and the map wrapped, not
     * copied. For a map the caller has just built and gives up (nothing else may hold it): an action's
     * form, built once per action, need not be copied to be frozen.
     */
    public static Map<String, Object> frozenOwned(Map<String, Object> built) {
        built.replaceAll((key, value) -> frozen(value));
        return Frozen.map(built);
    }

    /**
     * {@code built} made deeply unmodifiable in place: every map and list in it wrapped, its leaves
     * turned into the types {@link #frozen} keeps, nothing copied but a map or list of a class that
     * cannot be changed in place. For a whole object the caller has just built and gives up, down to
     * its last list (nothing else may hold any part of it): an object read back from an informer's
     * compact cache, once per cycle, becomes a fact without being copied a second time.
     *
     * @throws IllegalArgumentException for a value {@link #frozen} refuses
     */
    public static Map<String, Object> frozenInPlace(Map<String, Object> built) {
        return frozenInPlaceValue(built);
    }

    @SuppressWarnings("unchecked")
    private static <T> T frozenInPlaceValue(Object value) {
        // The JDK's own modifiable classes only, as JSON and YAML parsers make them: a subclass may
        // refuse a change or keep a copy, and is copied by frozen() as any other map or list.
        Class<?> type = value == null ? null : value.getClass();
        if (type == LinkedHashMap.class || type == java.util.HashMap.class) {
            Map<Object, Object> map = (Map<Object, Object>) value;
            for (Map.Entry<Object, Object> entry : map.entrySet()) {
                if (!(entry.getKey() instanceof String)) return (T) frozen(map); // keys become strings: a copy
                entry.setValue(frozenInPlaceValue(entry.getValue()));
            }
            return (T) Frozen.wrap((Map<String, Object>) value);
        }
        if (type == ArrayList.class) {
            List<Object> list = (List<Object>) value;
            for (int i = 0; i < list.size(); i++) {
                list.set(i, frozenInPlaceValue(list.get(i)));
            }
            return (T) Frozen.list(list);
        }
        return (T) frozen(value);
    }

    /** A deep, unmodifiable copy of a map with string keys. */
    public static Map<String, Object> frozenMap(Map<String, ?> map) {
        @SuppressWarnings("unchecked")
        Map<String, Object> copy = (Map<String, Object>) frozen((Object) map);
        return copy;
    }

    /** A deep, modifiable copy: the starting point for building objects and patches. */
    @SuppressWarnings("unchecked")
    public static <T> T thawed(T value) {
        return thawedValue(value);
    }

    @SuppressWarnings("unchecked")
    private static <T> T thawedValue(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(String.valueOf(k), thawed(v)));
            return (T) copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(v -> copy.add(thawed(v)));
            return (T) copy;
        }
        return (T) value;
    }

    /**
     * Whether two JSON-like values mean the same: numbers by value (3, 3L and 3.0 are the same), maps
     * by their entries regardless of order (an entry holding null is the same as no entry), lists
     * element by element in order. The simulator and the operator both decide "nothing changed" by it.
     */
    public static boolean same(Object a, Object b) {
        if (a == b) return true;
        if (a instanceof Number x && b instanceof Number y) return decimal(x).compareTo(decimal(y)) == 0;
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            for (Map.Entry<?, ?> e : x.entrySet()) {
                if (!same(e.getValue(), y.get(e.getKey()))) return false;
            }
            for (Map.Entry<?, ?> e : y.entrySet()) {
                if (e.getValue() != null && !x.containsKey(e.getKey())) return false;
            }
            return true;
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) return false;
            for (int i = 0; i < x.size(); i++) {
                if (!same(x.get(i), y.get(i))) return false;
            }
            return true;
        }
        return a != null && a.equals(b);
    }

    /** A number as an exact decimal; NaN and infinities are not JSON numbers and are refused. */
    public static BigDecimal decimal(Number n) {
        if (n instanceof BigDecimal d) return d;
        if (n instanceof Double || n instanceof Float) {
            double d = n.doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new IllegalArgumentException(n + " is not a JSON number");
            }
            return BigDecimal.valueOf(d);
        }
        return new BigDecimal(n.toString());
    }
}
