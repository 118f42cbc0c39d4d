package dev.runbook.engine.containment;

import java.util.regex.Pattern;

/**
 * A value Drools may evaluate while it builds a bundle (a rule's or a type's metadata, a declared
 * field's default, an enum constant's argument, a query's argument) must be a plain literal: a string,
 * a number (with a unit or a type suffix: {@code 10s}, {@code 5L}), {@code true}, {@code false},
 * {@code null}, or one bare name ({@code event}). MVEL evaluates such a value during the build, in
 * {@code runbook lint}, {@code pack} and the operator's vetting, before any budget applies; a literal
 * evaluates to itself, and nothing else is needed in a runbook.
 */
final class PlainLiteral {
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*'");
    private static final Pattern NUMBER_OR_NAME = Pattern.compile("-?[0-9][\\w.]*|[A-Za-z_$][\\w$]*");

    private PlainLiteral() {}

    static boolean is(String value) {
        String v = value.strip();
        return STRING.matcher(v).matches() || NUMBER_OR_NAME.matcher(v).matches() && !v.contains("..");
    }

    /** The names of {@code @watch(name, !other, *)}: property names, negated, or every one. */
    static boolean isWatchList(String value) {
        for (String part : value.split(",")) {
            String name = part.strip();
            if (name.startsWith("!")) name = name.substring(1).strip();
            if (!name.equals("*") && !name.matches("[A-Za-z_$][\\w$]*")) return false;
        }
        return true;
    }
}
