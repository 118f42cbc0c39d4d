package dev.runbook.operator.observe;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code labels} mapping of {@code bundle.yaml}: the labels an object carries to belong to a primary,
 * where {@code {name}} in a value stands for the primary's name (e.g.
 * {@code postgres.runbook.dev/cluster: "{name}"}, or {@code app: "web-{name}"}).
 */
public final class LabelMapping {
    static final String NAME = "{name}";

    private final Map<String, String> constants = new LinkedHashMap<>();
    private final Map<String, Pattern> named = new LinkedHashMap<>();

    public LabelMapping(Map<String, String> selector) {
        selector.forEach((key, value) -> {
            if (value.contains(NAME)) {
                named.put(key, pattern(value));
            } else {
                constants.put(key, value);
            }
        });
    }

    private static Pattern pattern(String template) {
        StringBuilder regex = new StringBuilder();
        int from = 0;
        for (int at = template.indexOf(NAME); at >= 0; at = template.indexOf(NAME, from)) {
            regex.append(Pattern.quote(template.substring(from, at))).append("(.+)");
            from = at + NAME.length();
        }
        regex.append(Pattern.quote(template.substring(from)));
        return Pattern.compile(regex.toString());
    }

    /** Whether a selector value names the primary, so that the mapping finds one primary by name. */
    public boolean namesThePrimary() { return !named.isEmpty(); }

    /**
     * The name of the primary these labels point to: empty when a constant label is missing or
     * different, when a {@code {name}} label is missing or does not fit its value, or when two of them
     * name different primaries. Without any {@code {name}} value, the matching labels point to no one
     * name (see {@link #matchesConstants}).
     */
    public Optional<String> primaryName(Map<String, String> labels) {
        if (labels == null || !matchesConstants(labels) || named.isEmpty()) return Optional.empty();
        String name = null;
        for (Map.Entry<String, Pattern> entry : named.entrySet()) {
            String value = labels.get(entry.getKey());
            if (value == null) return Optional.empty();
            Matcher matcher = entry.getValue().matcher(value);
            if (!matcher.matches()) return Optional.empty();
            for (int group = 1; group <= matcher.groupCount(); group++) {
                if (name != null && !name.equals(matcher.group(group))) return Optional.empty();
                name = matcher.group(group);
            }
        }
        return Optional.ofNullable(name);
    }

    /** Whether the labels hold every constant label of the selector. */
    public boolean matchesConstants(Map<String, String> labels) {
        if (labels == null) return constants.isEmpty();
        for (Map.Entry<String, String> entry : constants.entrySet()) {
            if (!entry.getValue().equals(labels.get(entry.getKey()))) return false;
        }
        return true;
    }

    /**
     * The label selector for the informer: equality for constant values, existence for values that
     * name the primary (which differ per primary). Null when the selector is empty.
     */
    public String informerSelector() {
        StringJoiner selector = new StringJoiner(",");
        constants.forEach((key, value) -> selector.add(key + "=" + value));
        named.keySet().forEach(selector::add);
        return selector.length() == 0 ? null : selector.toString();
    }
}
