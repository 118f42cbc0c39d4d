package dev.runbook.rules.function;

import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Reads a 5-field UNIX cron schedule, checks every field, and rewrites it in a canonical form for
 * the evaluator: names become numbers, day-of-week 7 becomes 0, and every restricted field becomes
 * an explicit list of values ({@code "*}{@code /15"} becomes {@code "0,15,30,45"}). An unrestricted
 * field ({@code *} or {@code *}{@code /1}) stays {@code *}, because that is what decides whether
 * day-of-month and day-of-week combine with OR (both restricted) or with AND.
 *
 * <p>The meaning follows Kubernetes CronJobs: {@code 5/15} means {@code 5-59/15}, and in the
 * day-of-week field {@code 1/2} means {@code 1-6/2}.
 */
final class CronSyntax {

    static final String FIELDS_HELP = "minute hour day-of-month month day-of-week, e.g. 0 2 * * * for 02:00 UTC"
            + " every day";

    private static final Map<String, String> MACROS = Map.of(
            "@yearly", "0 0 1 1 *",
            "@annually", "0 0 1 1 *",
            "@monthly", "0 0 1 * *",
            "@weekly", "0 0 * * 0",
            "@daily", "0 0 * * *",
            "@midnight", "0 0 * * *",
            "@hourly", "0 * * * *");

    private static final int[] MAX_DAYS = {0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

    private enum Field {
        MINUTE("minute", 0, 59, 59, List.of()),
        HOUR("hour", 0, 23, 23, List.of()),
        DAY_OF_MONTH("day-of-month", 1, 31, 31, List.of()),
        MONTH("month", 1, 12, 12, List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")),
        DAY_OF_WEEK("day-of-week", 0, 7, 6, List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"));

        final String label;
        final int min;
        final int max;
        /** Where {@code *} and {@code n/step} end: 6 for day-of-week, so that Sunday is not counted twice. */
        final int openEnd;
        /** Names in order; the first name stands for {@link #min}. */
        final List<String> names;

        Field(String label, int min, int max, int openEnd, List<String> names) {
            this.label = label;
            this.min = min;
            this.max = max;
            this.openEnd = openEnd;
            this.names = names;
        }

        String allowed() {
            String numbers = min + "-" + max;
            if (names.isEmpty()) return numbers;
            return numbers + " or " + names.get(0) + "-" + names.get(names.size() - 1)
                    + (this == DAY_OF_WEEK ? " (0 and 7 are both Sunday)" : "");
        }
    }

    private CronSyntax() {
    }

    /**
     * The canonical form of {@code schedule}.
     *
     * @throws IllegalArgumentException quoting the schedule, naming the faulty field and the fix
     */
    static String canonical(String schedule) {
        if (schedule == null) {
            throw new IllegalArgumentException("null is not a cron schedule: give five fields, " + FIELDS_HELP);
        }
        String text = schedule.strip();
        if (text.startsWith("@")) {
            String expanded = MACROS.get(text.toLowerCase(Locale.ROOT));
            if (expanded == null) {
                throw invalid(schedule, "it is not a known macro; use @hourly, @daily, @midnight,"
                        + " @weekly, @monthly, @yearly or @annually, or five fields: " + FIELDS_HELP);
            }
            text = expanded;
        }
        String[] parts = text.isEmpty() ? new String[0] : text.split("\\s+");
        if (parts.length != 5) {
            throw invalid(schedule, "it has " + parts.length + (parts.length == 1 ? " field" : " fields")
                    + " but needs 5: " + FIELDS_HELP);
        }
        Field[] fields = Field.values();
        BitSet[] values = new BitSet[5];
        StringJoiner out = new StringJoiner(" ");
        for (int i = 0; i < 5; i++) {
            values[i] = parseField(schedule, fields[i], parts[i]);
            out.add(isUnrestricted(parts[i]) ? "*" : list(values[i]));
        }
        checkFires(schedule, parts, values);
        return out.toString();
    }

    private static boolean isUnrestricted(String field) {
        return field.equals("*") || field.equals("*/1");
    }

    private static BitSet parseField(String schedule, Field field, String text) {
        BitSet set = new BitSet();
        String[] items = text.split(",", -1);
        for (String item : items) {
            if (item.isEmpty()) {
                throw invalid(schedule, field.label + " '" + text + "' has an empty list entry; separate values"
                        + " with single commas, e.g. 1,15");
            }
            if (item.startsWith("*") && items.length > 1) {
                throw invalid(schedule, field.label + " '" + text + "' mixes * with other values; use * alone"
                        + " or list the values");
            }
            parseItem(schedule, field, text, item, set);
        }
        return set;
    }

    private static void parseItem(String schedule, Field field, String text, String item, BitSet set) {
        String range = item;
        int step = 1;
        boolean stepped = false;
        int slash = item.indexOf('/');
        if (slash >= 0) {
            range = item.substring(0, slash);
            String stepText = item.substring(slash + 1);
            Integer parsed = stepText.matches("\\d{1,3}") ? Integer.valueOf(stepText) : null;
            if (parsed == null || parsed < 1 || parsed > field.max) {
                throw invalid(schedule, field.label + " '" + text + "' has the step '" + stepText
                        + "'; a step is a whole number from 1 to " + field.max + ", e.g. */15");
            }
            step = parsed;
            stepped = true;
        }
        int low;
        int high;
        if (range.equals("*")) {
            low = field.min;
            high = field.openEnd;
        } else {
            int dash = range.indexOf('-');
            if (dash >= 0) {
                low = value(schedule, field, text, range.substring(0, dash));
                high = value(schedule, field, text, range.substring(dash + 1));
                if (low > high) {
                    String what = range.equals(text) ? "'" + text + "' runs"
                            : "'" + text + "' has the range '" + range + "', which runs";
                    throw invalid(schedule, field.label + " " + what + " backwards; write the smaller value first"
                            + (field == Field.DAY_OF_WEEK ? ", e.g. 1-5, or 6-7 for the weekend" : ", e.g. 1-5"));
                }
            } else {
                low = value(schedule, field, text, range);
                high = stepped ? Math.max(low, field.openEnd) : low;
            }
        }
        for (int v = low; v <= high; v += step) {
            set.set(field == Field.DAY_OF_WEEK && v == 7 ? 0 : v);
        }
    }

    private static int value(String schedule, Field field, String text, String token) {
        if (token.matches("\\d{1,4}")) {
            int v = Integer.parseInt(token);
            if (v < field.min || v > field.max) {
                String what = token.equals(text) ? "'" + text + "' is" : "'" + text + "' has " + token + ", which is";
                throw invalid(schedule, field.label + " " + what + " out of range; use " + field.allowed());
            }
            return v;
        }
        int index = field.names.indexOf(token.toUpperCase(Locale.ROOT));
        if (index >= 0) {
            return field.min + index;
        }
        String what = token.isEmpty() ? "'" + text + "' has a range with a missing end"
                : token.equals(text) ? "'" + text + "' is not a value"
                : "'" + text + "' has '" + token + "', which is not a value";
        throw invalid(schedule, field.label + " " + what + "; use " + field.allowed()
                + ", with *, lists (1,15), ranges (1-5) and steps (*/15)");
    }

    /** A schedule that restricts only the day of the month must name a day that some named month has. */
    private static void checkFires(String schedule, String[] parts, BitSet[] values) {
        boolean daysOfMonthOnly = !isUnrestricted(parts[2]) && isUnrestricted(parts[4]);
        if (!daysOfMonthOnly) {
            return;
        }
        BitSet months = values[3];
        int firstDay = values[2].nextSetBit(1);
        for (int month = months.nextSetBit(1); month >= 0; month = months.nextSetBit(month + 1)) {
            if (firstDay <= MAX_DAYS[month]) {
                return;
            }
        }
        throw invalid(schedule, "it never runs, because no month in '" + parts[3] + "' has a day '" + parts[2]
                + "'; check the day-of-month and month fields");
    }

    private static String list(BitSet set) {
        StringJoiner out = new StringJoiner(",");
        set.stream().forEach(v -> out.add(Integer.toString(v)));
        return out.toString();
    }

    private static IllegalArgumentException invalid(String schedule, String fix) {
        return new IllegalArgumentException("'" + schedule + "' is not a cron schedule: " + fix);
    }
}
