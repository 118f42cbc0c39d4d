package dev.runbook.instance.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every promotion the servers made, read from their own logs: a server leaving recovery writes
 * {@code selected new timeline ID: N}, after the timestamp of PostgreSQL's default
 * {@code log_line_prefix} ({@code %m}: milliseconds, this machine's clock). The servers' word, not
 * the operator's: a promotion the operator never recorded counts too.
 */
final class Promotions {
    private static final Pattern LINE = Pattern.compile(
            "^(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{3} \\S+) \\[\\d+\\] LOG:  selected new timeline ID: (\\d+)");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS z");

    /** A server ({@code port}) promoted itself onto {@code timeline} at {@code micros} (epoch microseconds). */
    record Promotion(String instance, int port, long timeline, long micros) {
    }

    private Promotions() {}

    /** Every promotion in the logs of {@code logs} (instance name to its server log), oldest first. */
    static List<Promotion> read(Map<String, Path> logs, Map<String, Integer> ports) {
        List<Promotion> all = new ArrayList<>();
        logs.forEach((instance, log) -> {
            if (!Files.exists(log)) {
                return;
            }
            try (var lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
                lines.forEach(line -> {
                    Matcher m = LINE.matcher(line);
                    if (m.find()) {
                        long micros = ChronoUnit.MICROS.between(java.time.Instant.EPOCH, ZonedDateTime.parse(m.group(1), TIME).toInstant());
                        all.add(new Promotion(instance, ports.get(instance), Long.parseLong(m.group(2)), micros));
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        all.sort(Comparator.comparingLong(Promotion::micros));
        return all;
    }

    /**
     * An acknowledged insert that a server began after another server had been promoted later than it
     * last was: it took a write while not the newest primary (split brain).
     */
    static boolean acceptedByFormerPrimary(Ledger.Ack ack, List<Promotion> promotions) {
        long ownLast = Long.MIN_VALUE;
        for (Promotion p : promotions) {
            if (p.micros() <= ack.serverMicros() && p.port() == ack.port()) {
                ownLast = p.micros();
            }
        }
        for (Promotion p : promotions) {
            if (p.port() != ack.port() && p.micros() > ownLast && p.micros() < ack.serverMicros()) {
                return true;
            }
        }
        return false;
    }

    /** Timelines that two promotions chose, each with both promotions: two histories under one number. */
    static List<String> reusedTimelines(List<Promotion> promotions) {
        List<String> reused = new ArrayList<>();
        for (int i = 0; i < promotions.size(); i++) {
            for (int j = i + 1; j < promotions.size(); j++) {
                Promotion a = promotions.get(i), b = promotions.get(j);
                if (a.timeline() == b.timeline()) {
                    reused.add("timeline " + a.timeline() + " chosen by " + a.instance() + " and by " + b.instance());
                }
            }
        }
        return reused;
    }
}
