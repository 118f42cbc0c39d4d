package dev.runbook.cli.command;

import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** {@code --now TIME} of {@code plan} and {@code why}: the cycle's time, RFC 3339, else the clock's. */
final class NowOption {
    private NowOption() {}

    static Instant time(String now, Clock clock) {
        if (now == null) return clock.instant();
        try {
            return OffsetDateTime.parse(now).toInstant();
        } catch (DateTimeParseException e) {
            throw new InvalidInputException(Problem.inFile("--now", "'" + now
                    + "' is not a time: use RFC 3339, e.g. 2026-11-30T09:00:00Z"));
        }
    }
}
