package dev.runbook.postgres.vocabulary;

import dev.runbook.rules.fact.Params;
import dev.runbook.rules.fact.Primary;
import dev.runbook.rules.function.Durations;
import dev.runbook.rules.function.Names;

import java.time.Duration;
import java.time.Instant;

/**
 * For the postgres-cluster runbook's backups, and any bundle whose resource follows the same layout:
 * {@code spec.backup.schedule} (cron), {@code spec.backup.retention.count} and {@code .maxAge}, and
 * {@code spec.backup.onDemand}, a token that asks for one backup Job. Every function returns a value or a problem to report; none throws
 * on a bad setting, so that one bad field is reported instead of stopping the runbook.
 */
public final class Backups {

    private static final String COUNT = "spec.backup.retention.count";
    private static final String MAX_AGE = "spec.backup.retention.maxAge";

    private Backups() {
    }

    /**
     * A key that sorts backups from oldest to newest: the creation time (seconds, zero-padded), then
     * the name, as in {@code "0000000001796029200/pg-backup-20261130-0200"}. A backup with a greater
     * key is newer; an unknown creation time sorts first.
     */
    public static String order(Instant created, String name) {
        return String.format("%019d/%s", created == null ? 0L : created.getEpochSecond(), name);
    }

    /**
     * What makes the retention unusable, or null when it can be used: the count
     * ({@code spec.backup.retention.count}, else the parameter named {@code countParameter}) must be a
     * whole number of at least 1, and {@code spec.backup.retention.maxAge}, when set, a duration.
     */
    public static String retentionProblem(Primary cluster, Params params, String countParameter) {
        try {
            String from = cluster.has(COUNT) ? COUNT : "the parameter " + countParameter;
            int count = cluster.integer(COUNT, params.integer(countParameter));
            if (count < 1) {
                return from + ": " + count + " keeps no backup; use 1 or more";
            }
            cluster.duration(MAX_AGE, null);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /**
     * The Job name that an on-demand token gives: {@code CLUSTER-backup-SLUG} (see
     * {@link Names#slug}), or null when the token cannot make one: it has no letter or digit, has a
     * control character, or the name would be longer than {@value Names#MAX_LENGTH} characters.
     */
    public static String onDemandJobName(String cluster, String token) {
        String id = Names.slug(token);
        String name = cluster + "-backup-" + id;
        return id.isEmpty() || name.length() > Names.MAX_LENGTH || Names.hasControlCharacter(token) ? null : name;
    }

    /** Why {@link #onDemandJobName} gives no name for a token, and what to write instead. */
    public static String onDemandProblem(String cluster, String token) {
        String id = Names.slug(token);
        if (Names.hasControlCharacter(token)) {
            return "spec.backup.onDemand must be one line of text without control characters";
        }
        if (id.isEmpty()) {
            return "spec.backup.onDemand '" + token + "' has no letter or digit to name a backup job; use e.g. before-upgrade-1";
        }
        String name = cluster + "-backup-" + id;
        return "spec.backup.onDemand '" + token + "' would name the backup job " + name + ", which has " + name.length()
                + " characters; a Job name has at most " + Names.MAX_LENGTH + ": use a shorter token";
    }

    /**
     * The backup settings in one sentence, for a condition: the schedule (or none), how many
     * completed backups are kept and, when {@code maxAgeSeconds} is not negative, for how long.
     */
    public static String settingsSummary(String schedule, int count, long maxAgeSeconds) {
        String summary = schedule.isEmpty() ? "no schedule (on demand only)" : "scheduled at '" + schedule + "' (UTC)";
        summary += "; keeps the newest " + count + " completed backups";
        if (maxAgeSeconds >= 0) {
            summary += ", none older than " + Durations.format(Duration.ofSeconds(maxAgeSeconds)) + " but the newest";
        }
        return summary;
    }
}
