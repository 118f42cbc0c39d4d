package dev.runbook.rules.function;

import java.util.Locale;

/**
 * Kubernetes object names made from text that people write, such as a request token in a spec.
 */
public final class Names {

    /** The longest name that fits everywhere a name is used (a DNS label, a label value). */
    public static final int MAX_LENGTH = 63;

    private Names() {
    }

    /**
     * Text made fit for a name: lower case, each run of characters other than letters and digits made
     * one hyphen, no hyphen at either end. {@code "Before upgrade 17"} gives {@code "before-upgrade-17"};
     * text without a letter or digit gives {@code ""}.
     *
     * @throws IllegalArgumentException when the text is null
     */
    public static String slug(String text) {
        if (text == null) {
            throw new IllegalArgumentException("null has no name: pass text, e.g. \"Before upgrade 17\"");
        }
        return text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
    }

    /** Whether the text holds a control character (a line break, a tab ...). */
    public static boolean hasControlCharacter(String text) {
        return text != null && text.matches("(?s).*\\p{Cntrl}.*");
    }

    /**
     * The ordinal of a StatefulSet pod's name, the number after its last hyphen: 2 for {@code pg-2};
     * -1 when the name does not end in one.
     */
    public static int ordinal(String name) {
        if (name == null) return -1;
        // By hand, not a regular expression (\\d{1,9}): a rule asks for every pod's ordinal every cycle.
        int start = name.lastIndexOf('-') + 1;
        int digits = name.length() - start;
        if (digits < 1 || digits > 9) return -1;
        int ordinal = 0;
        for (int i = start; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') return -1;
            ordinal = ordinal * 10 + (c - '0');
        }
        return ordinal;
    }
}
