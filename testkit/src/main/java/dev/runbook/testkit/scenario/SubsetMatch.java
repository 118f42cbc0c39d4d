package dev.runbook.testkit.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Whether an expected YAML value is contained in an actual one: every key of an expected mapping
 * must be in the actual mapping with a matching value; every item of an expected list must match a
 * distinct item of the actual list; scalars match when their text is equal ({@code 3} matches
 * {@code "3"}, because YAML and Kubernetes disagree on quoting). An expected {@code null} matches
 * only an absent or null value.
 */
public final class SubsetMatch {
    private SubsetMatch() {}

    public static boolean matches(Object expected, Object actual) {
        if (expected instanceof Map<?, ?> want) {
            if (!(actual instanceof Map<?, ?> have)) return false;
            for (Map.Entry<?, ?> entry : want.entrySet()) {
                if (entry.getValue() == null) {
                    if (have.get(entry.getKey()) != null) return false;
                } else if (!have.containsKey(entry.getKey()) || !matches(entry.getValue(), have.get(entry.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        if (expected instanceof List<?> want) {
            if (!(actual instanceof List<?> have)) return false;
            List<Object> unused = new ArrayList<>(have);
            for (Object item : want) {
                Object found = null;
                for (Object candidate : unused) {
                    if (matches(item, candidate)) {
                        found = candidate;
                        break;
                    }
                }
                if (found == null) return false;
                unused.remove(found);
            }
            return true;
        }
        if (expected == null) return actual == null;
        return actual != null && String.valueOf(expected).equals(String.valueOf(actual));
    }
}
