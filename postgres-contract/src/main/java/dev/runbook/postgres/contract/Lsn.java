package dev.runbook.postgres.contract;

import java.util.OptionalLong;

/**
 * PostgreSQL write-ahead log positions (LSNs), read one way on both sides of the contract: a byte
 * position in decimal ({@code 50331648}) or PostgreSQL's own text form {@code X/Y}, two hexadecimal
 * numbers of up to 8 digits each, the high and the low 32 bits ({@code 0/3000000} is 50331648). The
 * difference of two positions is a number of bytes, which compares with a quantity such as {@code 16Mi}.
 *
 * <p>Text that is not a position is refused with a message that quotes it ({@link #parse}); a caller
 * for whom a missing or unreadable report means "not known yet" asks {@link #read}, which says so
 * explicitly instead of with a sentinel number. Rules call it too (it is on the bundle allow-list).
 */
public final class Lsn {

    /** How a position is written, for messages that say what was expected. */
    public static final String FORMS = "a decimal byte position (e.g. 50331648) or PostgreSQL's X/Y form (e.g. 0/3000000)";

    private static final int MAX_HEX_DIGITS = 8;
    private static final int MAX_DECIMAL_DIGITS = 19;
    private static final long REFUSED = -1; // internal only: never returned, see parse and read

    private Lsn() {
    }

    /**
     * The position in bytes.
     *
     * @throws IllegalArgumentException quoting the text and the forms it may take
     */
    public static long parse(String text) {
        long position = positionOf(text);
        if (position == REFUSED) {
            throw new IllegalArgumentException("'" + text + "' is not a WAL position: use " + FORMS);
        }
        return position;
    }

    /** The position, or empty when the text is absent, blank or not a position: "not known". */
    public static OptionalLong read(String text) {
        long position = positionOf(text);
        return position == REFUSED ? OptionalLong.empty() : OptionalLong.of(position);
    }

    /** Whether {@link #parse} reads the text. */
    public static boolean isValid(String text) {
        return positionOf(text) != REFUSED;
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

    // Read by hand, not with a regular expression: rules read every member's position every cycle.
    private static long positionOf(String text) {
        String trimmed = text == null ? "" : text.strip();
        int slash = trimmed.indexOf('/');
        if (slash >= 0) {
            long high = digits(trimmed, 0, slash, 16, MAX_HEX_DIGITS);
            long low = digits(trimmed, slash + 1, trimmed.length(), 16, MAX_HEX_DIGITS);
            // positions from 80000000/0 on do not fit a long; no real cluster reaches them
            return high == REFUSED || low == REFUSED || high >= 0x80000000L ? REFUSED : high << 32 | low;
        }
        return digits(trimmed, 0, trimmed.length(), 10, MAX_DECIMAL_DIGITS);
    }

    /** The number written in {@code text[from, to)}: 1 to {@code maxDigits} digits of the radix that fit a long, else REFUSED. */
    private static long digits(String text, int from, int to, int radix, int maxDigits) {
        if (to - from < 1 || to - from > maxDigits) {
            return REFUSED;
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            int digit = Character.digit(text.charAt(i), radix);
            if (digit < 0 || text.charAt(i) > 'f') {
                return REFUSED; // also refuses the digits of other scripts, which Character.digit reads
            }
            if (value > (Long.MAX_VALUE - digit) / radix) {
                return REFUSED;
            }
            value = value * radix + digit;
        }
        return value;
    }
}
