package dev.runbook.instance.config;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as the PostgresCluster's spec writes them ({@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}), both ways. */
public final class DurationText {
    private static final Pattern TEXT = Pattern.compile("^(\\d{1,9})(ms|s|m|h)$");

    private DurationText() {}

    /** The duration, or empty when the text is not one. */
    public static Optional<Duration> parse(String text) {
        Matcher m = text == null ? null : TEXT.matcher(text.trim());
        if (m == null || !m.matches()) {
            return Optional.empty();
        }
        long n = Long.parseLong(m.group(1));
        return Optional.of(switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        });
    }

    /** Whole seconds as {@code 10s}, anything else in milliseconds. */
    public static String format(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
    }
}
