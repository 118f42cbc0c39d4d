package dev.runbook.rules.function;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Lengths of time written the way people write them in a spec: {@code 500ms}, {@code 30s},
 * {@code 5m}, {@code 1h30m}, {@code 2d}; ISO-8601 ({@code PT5M}) is accepted too.
 *
 * <p>Units are {@code d} (exactly 24 hours), {@code h}, {@code m}, {@code s} and {@code ms}, in lower
 * case. Each number is a whole number and needs a unit; several parts are written from the largest
 * unit to the smallest, each unit at most once. Leading and trailing spaces are ignored. A duration
 * is never negative.
 */
public final class Durations {

    private static final String EXAMPLES = "e.g. 500ms, 30s, 5m, 1h30m, 2d";
    private static final Pattern PART = Pattern.compile("(\\d+)(ms|d|h|m|s)");
    private static final Pattern NUMBER_ONLY = Pattern.compile("\\d+");
    private static final String[] UNITS = {"d", "h", "m", "s", "ms"};

    private Durations() {
    }

    /**
     * Reads a duration.
     *
     * @param text such as {@code "500ms"}, {@code "30s"}, {@code "5m"}, {@code "1h30m"}, {@code "2d"}
     *        or ISO-8601 {@code "PT5M"}
     * @return the duration; {@code "0s"} gives {@link Duration#ZERO}
     * @throws IllegalArgumentException when the text is null, empty, negative or not a duration
     */
    public static Duration parse(String text) {
        return PARSED.parse(text);
    }

    private static final ParseMemo<Duration> PARSED = new ParseMemo<>(Durations::parseText);

    private static Duration parseText(String text) {
        if (text == null) {
            throw new IllegalArgumentException("null is not a duration: give a number and a unit, " + EXAMPLES);
        }
        String s = text.strip();
        if (s.isEmpty()) {
            throw invalid(text, "give a number and a unit, " + EXAMPLES);
        }
        if (s.startsWith("-")) {
            throw invalid(text, "a duration cannot be negative; write it without the minus sign, e.g. "
                    + s.substring(1));
        }
        if (s.charAt(0) == 'P' || s.charAt(0) == 'p') {
            return parseIso(text, s);
        }
        if (NUMBER_ONLY.matcher(s).matches()) {
            throw invalid(text, "add a unit, e.g. " + s + "s or " + s + "m");
        }
        if (s.indexOf('.') >= 0) {
            throw invalid(text, "use whole numbers, e.g. 1h30m instead of 1.5h, or 1s500ms instead of 1.5s");
        }
        if (!s.equals(s.toLowerCase(java.util.Locale.ROOT))) {
            throw invalid(text, "units are lower case: d, h, m, s and ms, " + EXAMPLES);
        }
        Matcher m = PART.matcher(s);
        Duration total = Duration.ZERO;
        int position = 0;
        int lastUnit = -1;
        while (position < s.length()) {
            m.region(position, s.length());
            if (!m.lookingAt()) {
                throw invalid(text, "use a number and a unit, " + EXAMPLES);
            }
            int unit = unitIndex(m.group(2));
            if (unit <= lastUnit) {
                throw invalid(text, "write each unit once, from the largest to the smallest, e.g. 1h30m");
            }
            lastUnit = unit;
            try {
                total = total.plus(part(Long.parseLong(m.group(1)), unit));
            } catch (NumberFormatException | ArithmeticException e) {
                throw invalid(text, "it is too long; use a smaller number");
            }
            position = m.end();
        }
        return total;
    }

    /**
     * The duration in whole seconds, rounded down: {@code seconds("1m30s")} is 90 and
     * {@code seconds("1500ms")} is 1.
     *
     * @throws IllegalArgumentException as {@link #parse(String)}
     */
    public static long seconds(String text) {
        return parse(text).getSeconds();
    }

    /**
     * The duration in whole milliseconds: {@code millis("1s500ms")} is 1500. Only ISO-8601 text can
     * hold less than a millisecond; that remainder is dropped.
     *
     * @throws IllegalArgumentException as {@link #parse(String)}, or when the duration does not fit
     *         in a {@code long} number of milliseconds
     */
    public static long millis(String text) {
        Duration duration = parse(text);
        try {
            return duration.toMillis();
        } catch (ArithmeticException e) {
            throw invalid(text, "it is too long to count in milliseconds; use seconds(...) instead");
        }
    }

    /**
     * Whole seconds from {@code since} to {@code now}, rounded down: 0 when {@code since} is null
     * (nothing recorded yet) or lies after {@code now}. For "how long has this been so" when the
     * start was recorded in status.
     */
    public static long secondsSince(Instant since, Instant now) {
        if (since == null || now == null) return 0L;
        return Math.max(0L, Duration.between(since, now).getSeconds());
    }

    /**
     * How long to wait from {@code now} until {@code then}, in whole seconds rounded up and at least
     * one, written as a duration such as {@code "15s"}: the argument of a requeue that should wake the
     * rules up at {@code then}. A time in the past gives {@code "1s"}.
     *
     * @throws IllegalArgumentException when either time is null
     */
    public static String secondsUntil(Instant now, Instant then) {
        if (now == null || then == null) {
            throw new IllegalArgumentException("secondsUntil needs two times, got " + now + " and " + then
                    + ": pass Instants, such as the cycle's Clock time");
        }
        long millis = Duration.between(now, then).toMillis();
        return Math.max(1L, (millis + 999L) / 1000L) + "s";
    }

    /**
     * Writes a duration in the shortest form that {@link #parse(String)} reads back, such as
     * {@code "1h30m"}, {@code "45s"}, {@code "2d"} or {@code "1s500ms"}; zero is {@code "0s"}. Parts
     * shorter than a millisecond are dropped.
     *
     * @throws IllegalArgumentException when the duration is null or negative
     */
    public static String format(Duration duration) {
        if (duration == null) {
            throw new IllegalArgumentException(
                    "null is not a duration: pass a Duration, e.g. Durations.parse(\"5m\")");
        }
        if (duration.isNegative()) {
            throw new IllegalArgumentException("'" + duration + "' cannot be formatted: a duration cannot be"
                    + " negative; pass its absolute value, e.g. duration.abs()");
        }
        long seconds = duration.getSeconds();
        long[] amounts = {
            seconds / 86_400,
            seconds % 86_400 / 3_600,
            seconds % 3_600 / 60,
            seconds % 60,
            duration.getNano() / 1_000_000
        };
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < amounts.length; i++) {
            if (amounts[i] != 0) {
                out.append(amounts[i]).append(UNITS[i]);
            }
        }
        return out.length() == 0 ? "0s" : out.toString();
    }

    private static Duration parseIso(String text, String s) {
        Duration duration;
        try {
            duration = Duration.parse(s);
        } catch (DateTimeParseException e) {
            throw invalid(text, "use days, hours, minutes and seconds in ISO-8601, e.g. PT5M or P1DT2H (months"
                    + " and years have no fixed length), or the short form, " + EXAMPLES);
        }
        if (duration.isNegative()) {
            throw invalid(text, "a duration cannot be negative; remove the minus sign");
        }
        return duration;
    }

    private static int unitIndex(String unit) {
        for (int i = 0; i < UNITS.length; i++) {
            if (UNITS[i].equals(unit)) {
                return i;
            }
        }
        throw new IllegalStateException("unit " + unit);
    }

    private static Duration part(long amount, int unit) {
        return switch (unit) {
            case 0 -> Duration.ofDays(amount);
            case 1 -> Duration.ofHours(amount);
            case 2 -> Duration.ofMinutes(amount);
            case 3 -> Duration.ofSeconds(amount);
            default -> Duration.ofMillis(amount);
        };
    }

    private static IllegalArgumentException invalid(String text, String fix) {
        return new IllegalArgumentException("'" + text + "' is not a duration: " + fix);
    }
}
