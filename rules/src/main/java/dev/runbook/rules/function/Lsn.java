package dev.runbook.rules.function;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL write-ahead log positions (LSNs), as instances report them: a byte position in decimal
 * ({@code 50331648}) or PostgreSQL's own text form {@code X/Y}, two hexadecimal numbers of up to 8
 * digits each, the high and the low 32 bits ({@code 0/3000000} is 50331648). The difference of two
 * positions is a number of bytes, which compares with a quantity such as {@code 16Mi}.
 */
public final class Lsn {

    /** How a position is written, for messages that say what was expected. */
    public static final String FORMS = "a decimal byte position (e.g. 50331648) or PostgreSQL's X/Y form (e.g. 0/3000000)";

    private static final Pattern DECIMAL = Pattern.compile("\\d{1,19}");
    private static final Pattern HIGH_LOW = Pattern.compile("([0-9A-Fa-f]{1,8})/([0-9A-Fa-f]{1,8})");

    private Lsn() {
    }

    /**
     * The position in bytes.
     *
     * @throws IllegalArgumentException quoting the text and the forms it may take
     */
    public static long parse(String text) {
        return PARSED.parse(text);
    }

    private static final ParseMemo<Long> PARSED = new ParseMemo<>(Lsn::parseText);

    private static long parseText(String text) {
        String trimmed = text == null ? "" : text.strip();
        Matcher highLow = HIGH_LOW.matcher(trimmed);
        if (highLow.matches()) {
            long position = (Long.parseLong(highLow.group(1), 16) << 32) | Long.parseLong(highLow.group(2), 16);
            if (position >= 0) {
                return position; // positions from 8000000/0 on do not fit a long; no real cluster reaches them
            }
        }
        if (DECIMAL.matcher(trimmed).matches()) {
            try {
                return Long.parseLong(trimmed);
            } catch (NumberFormatException tooLarge) {
                // falls through to the message below
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a WAL position: use " + FORMS);
    }

    /** Whether {@link #parse} reads the text. */
    public static boolean isValid(String text) {
        return problem(text) == null;
    }

    /** What is wrong with the text as a position, or null when {@link #parse} reads it. */
    public static String problem(String text) {
        try {
            parse(text);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /**
     * A position in PostgreSQL's form, upper-case hexadecimal as {@code pg_current_wal_lsn()} prints
     * it: 50331648 is {@code 0/3000000}.
     *
     * @throws IllegalArgumentException for a negative position
     */
    public static String format(long position) {
        if (position < 0) {
            throw new IllegalArgumentException(position + " is not a WAL position: a position is never negative");
        }
        return Long.toHexString(position >>> 32).toUpperCase() + "/" + Long.toHexString(position & 0xFFFFFFFFL).toUpperCase();
    }
}
