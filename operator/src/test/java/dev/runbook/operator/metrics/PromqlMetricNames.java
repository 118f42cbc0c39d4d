package dev.runbook.operator.metrics;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression reads (its vector selectors), for checking a dashboard's queries
 * and an alert's expressions against the names an operator serves. A small scanner, not a parser: it
 * drops what cannot be a metric name (strings, label matchers in braces, ranges in brackets, the label
 * lists of {@code by}, {@code without}, {@code on}, {@code ignoring}, {@code group_left} and
 * {@code group_right}, Grafana's variables), then takes every identifier that is not followed by a
 * parenthesis (a function or an aggregation) and is not a keyword. Grafana's {@code label_values(metric,
 * label)} reads its first argument only.
 */
final class PromqlMetricNames {
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "by", "without", "on",
            "ignoring", "group_left", "group_right", "inf", "nan", "atan2");
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\s*\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)[^)]*\\)");
    private static final Pattern GROUPING = Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

    private PromqlMetricNames() {}

    static Set<String> of(String expression) {
        String text = LABEL_VALUES.matcher(expression).replaceAll("$1");
        text = text.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"");
        text = text.replaceAll("\\$\\{[^}]*\\}|\\$[a-zA-Z_][a-zA-Z0-9_]*", " ");
        text = text.replaceAll("\\{[^}]*\\}", " ");
        text = text.replaceAll("\\[[^\\]]*\\]", " ");
        text = GROUPING.matcher(text).replaceAll(" ");
        Set<String> names = new LinkedHashSet<>();
        Matcher identifier = IDENTIFIER.matcher(text);
        while (identifier.find()) {
            String word = identifier.group();
            int start = identifier.start();
            if (start > 0 && (Character.isDigit(text.charAt(start - 1)) || text.charAt(start - 1) == '.')) continue; // 5m, 1e3, 0.95
            if (KEYWORDS.contains(word.toLowerCase(java.util.Locale.ROOT))) continue;
            if (text.substring(identifier.end()).stripLeading().startsWith("(")) continue;
            names.add(word);
        }
        return names;
    }
}
