package dev.runbook.rules.function;

import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One checked cron schedule, evaluated in UTC by cron-utils' {@link ExecutionTime}, which searches
 * field by field rather than minute by minute. cron-utils only ever sees the canonical form written
 * by {@link CronSyntax}, so its own parser's quirks (names, {@code n/step} in day-of-week) do not
 * matter. Schedules are cached by their text, since rules ask about the same few schedules in every
 * cycle.
 */
final class CronSchedule {

    private static final CronParser PARSER =
            new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    private static final int CACHE_LIMIT = 1024;
    private static final Map<String, CronSchedule> CACHE = new ConcurrentHashMap<>();

    private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999999Z");

    private final String text;
    private final ExecutionTime executionTime;

    private CronSchedule(String text, ExecutionTime executionTime) {
        this.text = text;
        this.executionTime = executionTime;
    }

    /**
     * The checked schedule for {@code text}.
     *
     * @throws IllegalArgumentException when the text is not a valid schedule
     */
    static CronSchedule of(String text) {
        CronSchedule cached = text == null ? null : CACHE.get(text);
        if (cached != null) {
            return cached;
        }
        String canonical = CronSyntax.canonical(text);
        ExecutionTime executionTime;
        try {
            synchronized (PARSER) {
                executionTime = ExecutionTime.forCron(PARSER.parse(canonical));
            }
        } catch (RuntimeException e) {
            // CronSyntax accepts only what the evaluator reads; this is a bug, not a user error.
            throw new IllegalStateException("cron-utils refused the canonical form '" + canonical + "' of '"
                    + text + "'", e);
        }
        CronSchedule schedule = new CronSchedule(text, executionTime);
        if (CACHE.size() >= CACHE_LIMIT) {
            CACHE.clear();
        }
        CACHE.put(text, schedule);
        return schedule;
    }

    /** The latest scheduled minute at or before {@code now} (seconds and below ignored). */
    Instant last(Instant now) {
        ZonedDateTime minute = utc(now).truncatedTo(ChronoUnit.MINUTES);
        if (executionTime.isMatch(minute)) {
            return minute.toInstant();
        }
        return found(executionTime.lastExecution(minute), "at or before", now);
    }

    /** The first scheduled minute strictly after {@code after}. */
    Instant next(Instant after) {
        return found(executionTime.nextExecution(utc(after)), "after", after);
    }

    private static ZonedDateTime utc(Instant time) {
        if (time.isBefore(EARLIEST) || time.isAfter(LATEST)) {
            throw new IllegalArgumentException("the time '" + time + "' is outside the years 1 to 9999 that"
                    + " schedules are evaluated in: pass a time within them");
        }
        return time.atZone(ZoneOffset.UTC);
    }

    private Instant found(Optional<ZonedDateTime> time, String relation, Instant reference) {
        return time.map(t -> t.truncatedTo(ChronoUnit.MINUTES).toInstant()).orElseThrow(() ->
                new IllegalArgumentException("'" + text + "' has no scheduled time " + relation + " " + reference
                        + ": pass a time within the years 1 to 9999"));
    }
}
