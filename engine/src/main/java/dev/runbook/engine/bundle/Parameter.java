package dev.runbook.engine.bundle;

import dev.runbook.rules.function.Durations;
import dev.runbook.rules.function.Quantities;

import java.util.Locale;

/** A tunable of a bundle: rules read it through the {@code Params} fact; scenarios and {@code --param} override it. */
public record Parameter(String name, Type type, Object defaultValue, String description) {

    public enum Type {
        STRING, INTEGER, BOOLEAN, DURATION,
        /** A Kubernetes quantity ({@code 512Mi}, {@code 1.5Gi}, {@code 500m}): kept as written, checked when read. */
        QUANTITY;

        static Type parse(String text) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + text + "' is not a parameter type: use string, integer, boolean, duration or quantity");
            }
        }

        static Type of(Object value) {
            if (value instanceof Boolean) return BOOLEAN;
            if (value instanceof Number) return INTEGER;
            return STRING;
        }
    }

    /** The typed value of {@code text} for this parameter, or an error saying what was expected. */
    public Object convert(Object value) {
        if (value == null) return null;
        String text = String.valueOf(value).trim();
        switch (type) {
            case INTEGER -> {
                try {
                    return Long.parseLong(text);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + text + "' is not a whole number");
                }
            }
            case BOOLEAN -> {
                if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) return Boolean.parseBoolean(text);
                throw new IllegalArgumentException("'" + text + "' is not true or false");
            }
            case DURATION -> {
                Durations.parse(text);
                return text;
            }
            case QUANTITY -> {
                Quantities.parse(text);
                return text;
            }
            default -> {
                return text;
            }
        }
    }
}
