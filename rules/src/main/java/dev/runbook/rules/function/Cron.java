package dev.runbook.rules.function;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Standard 5-field UNIX cron schedules, evaluated in UTC:
 * {@code minute hour day-of-month month day-of-week}.
 *
 * <p>Each field takes {@code *}, a value, a list ({@code 1,15}), a range ({@code 1-5}) and a step
 * ({@code *}{@code /15}, {@code 1-5/2}, {@code 5/15} = {@code 5-59/15}). Months may be written
 * {@code JAN}..{@code DEC} and days of the week {@code SUN}..{@code SAT}, in any case; day-of-week
 * 0 and 7 are both Sunday. When both day-of-month and day-of-week are restricted (neither is
 * {@code *}), a day matches when either matches: {@code 0 0 1 * MON} runs on the 1st and on every
 * Monday. The macros {@code @hourly}, {@code @daily}, {@code @midnight}, {@code @weekly},
 * {@code @monthly}, {@code @yearly} and {@code @annually} stand for their usual schedules.
 *
 * <p>Cron counts in whole minutes: every time given to these functions is first cut down to its
 * minute, and every time returned is on a whole minute.
 */
public final class Cron {

    private static final DateTimeFormatter SLOT_ID =
            DateTimeFormatter.ofPattern("yyyyMMdd-HHmm").withZone(ZoneOffset.UTC);

    private Cron() {
    }

    /**
     * Checks a schedule without evaluating it. A schedule that can never run, such as
     * {@code 0 0 30 2 *}, is invalid.
     *
     * @throws IllegalArgumentException quoting the schedule and saying which field is wrong
     */
    public static void validate(String schedule) {
        CronSchedule.of(schedule);
    }

    /**
     * What is wrong with a schedule, or null when it is valid: the message {@link #validate} would
     * throw. For a rule that reports a bad schedule instead of failing on it.
     */
    public static String problem(String schedule) {
        try {
            validate(schedule);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /**
     * The most recent scheduled time at or before {@code now}: for {@code 0 2 * * *} at
     * 2026-11-30T09:15:00Z this is 2026-11-30T02:00:00Z, and at exactly 02:00:30 it is 02:00 that day.
     *
     * @return a time on a whole minute, in UTC
     * @throws IllegalArgumentException when the schedule is invalid or {@code now} is null
     */
    public static Instant lastSlot(String schedule, Instant now) {
        return CronSchedule.of(schedule).last(required(now, "now"));
    }

    /**
     * The first scheduled time strictly after {@code after}: for {@code 0 2 * * *} after
     * 2026-11-30T02:00:00Z this is 2026-12-01T02:00:00Z.
     *
     * @return a time on a whole minute, in UTC
     * @throws IllegalArgumentException when the schedule is invalid or {@code after} is null
     */
    public static Instant nextSlot(String schedule, Instant after) {
        return CronSchedule.of(schedule).next(required(after, "after"));
    }

    /**
     * Whether a run is due: true when a scheduled time lies after {@code since} and at or before
     * {@code now}, that is, when {@link #lastSlot} of {@code now} is later than {@code since}.
     * {@code since} is normally the time the last run started. Any number of missed slots still
     * make only one run due.
     *
     * <p>{@code since == null} means "never ran", and is due when any scheduled time lies at or before
     * {@code now}. Every valid schedule has one, so a thing that never ran is due at once. To wait for
     * the first scheduled time instead, pass the time the thing was created as {@code since}.
     *
     * @throws IllegalArgumentException when the schedule is invalid or {@code now} is null
     */
    public static boolean isDue(String schedule, Instant since, Instant now) {
        Instant last = lastSlot(schedule, now);
        return since == null || last.isAfter(since);
    }

    /**
     * A name for the most recent scheduled time at or before {@code now}: {@code yyyyMMdd-HHmm} in
     * UTC, such as {@code 20261130-0200}. It contains only digits and a hyphen, so it fits in
     * Kubernetes names and labels, and every {@code now} up to the next slot gives the same id, so
     * a Job named with it is created once per slot.
     *
     * @throws IllegalArgumentException when the schedule is invalid or {@code now} is null
     */
    public static String slotId(String schedule, Instant now) {
        return SLOT_ID.format(lastSlot(schedule, now));
    }

    private static Instant required(Instant time, String name) {
        if (time == null) {
            throw new IllegalArgumentException("the time '" + name + "' is null: pass an Instant, such as the"
                    + " cycle's Clock time");
        }
        return time;
    }
}
