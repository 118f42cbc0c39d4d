package dev.runbook.operator.docs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The output a page shows under a command, as a pattern for what the command prints: a line {@code ...}
 * stands for any number of lines, and {@code ...} or {@code …} inside a line for any text; every other
 * character is literal. Blank lines at the end count for nothing, on either side.
 */
public final class ShownOutput {
    private ShownOutput() {}

    /** Whether {@code actual} is what {@code shown} promises. */
    public static boolean matches(List<String> shown, List<String> actual) {
        return matches(trimmed(shown), 0, trimmed(actual), 0);
    }

    /** The lines of {@code text}, without the blank lines at its end. */
    public static List<String> lines(String text) {
        return trimmed(Arrays.asList(text.split("\n", -1)));
    }

    private static List<String> trimmed(List<String> lines) {
        List<String> kept = new ArrayList<>(lines);
        while (!kept.isEmpty() && kept.get(kept.size() - 1).isBlank()) kept.remove(kept.size() - 1);
        return kept;
    }

    private static boolean matches(List<String> shown, int s, List<String> actual, int a) {
        if (s == shown.size()) return a == actual.size();
        if (shown.get(s).equals("...")) {
            for (int skip = a; skip <= actual.size(); skip++) {
                if (matches(shown, s + 1, actual, skip)) return true;
            }
            return false;
        }
        return a < actual.size() && line(shown.get(s)).matcher(actual.get(a)).matches() && matches(shown, s + 1, actual, a + 1);
    }

    /** One shown line as a pattern: {@code ...} or {@code …} inside it matches any text. */
    private static Pattern line(String shown) {
        String[] parts = shown.split("\\.\\.\\.|…", -1);
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) regex.append(".*");
            regex.append(Pattern.quote(parts[i]));
        }
        return Pattern.compile(regex.toString());
    }
}
