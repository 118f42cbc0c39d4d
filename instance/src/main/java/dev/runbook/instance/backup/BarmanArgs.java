package dev.runbook.instance.backup;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The command lines of Barman Cloud's tools (barman-cli-cloud 3.4), built from an {@link ObjectStore}
 * and nothing else: no credentials on a command line (they go in the tools' environment). Pure, so
 * each is checked in BarmanArgsTest.
 */
public final class BarmanArgs {
    private BarmanArgs() {
    }

    /** {@code barman-cloud-wal-archive ... DEST SERVER}; PostgreSQL's {@code %p} follows. */
    public static List<String> walArchive(ObjectStore store) {
        return tool("barman-cloud-wal-archive", store, List.of());
    }

    /** {@code barman-cloud-wal-restore ... DEST SERVER}; PostgreSQL's {@code %f %p} follow. */
    public static List<String> walRestore(ObjectStore store) {
        return tool("barman-cloud-wal-restore", store, List.of());
    }

    /** A base backup of the local server, reached on its Unix socket directory {@code host}, named {@code name}. */
    public static List<String> backup(ObjectStore store, String name, String host, int port, String user) {
        return tool("barman-cloud-backup", store, List.of("--immediate-checkpoint", "-h", host, "-p", Integer.toString(port), "-U", user,
                "-n", name));
    }

    /** One backup, by id or name, as JSON: {@code {"SERVER": {...}}}. */
    public static List<String> show(ObjectStore store, String idOrName) {
        List<String> args = tool("barman-cloud-backup-show", store, List.of("--format", "json"));
        args.add(idOrName);
        return args;
    }

    /** Every backup of the server, as JSON: {@code {"backups_list": [...]}}. */
    public static List<String> list(ObjectStore store) {
        return tool("barman-cloud-backup-list", store, List.of("--format", "json"));
    }

    /** Deletes the base backups a retention policy no longer keeps, and the WAL only they needed. */
    public static List<String> delete(ObjectStore store, String retentionPolicy) {
        return tool("barman-cloud-backup-delete", store, List.of("--retention-policy", retentionPolicy));
    }

    /** Restores a backup's files (by id) into {@code directory}, which must be absent or empty. */
    public static List<String> restore(ObjectStore store, String backupId, String directory) {
        List<String> args = tool("barman-cloud-restore", store, List.of());
        args.add(backupId);
        args.add(directory);
        return args;
    }

    /**
     * The retention policies for a backup Job: {@code REDUNDANCY n} (keep the n newest) and, when a
     * maximum age is set, {@code RECOVERY WINDOW OF d DAYS} with the age in whole days, rounded up.
     * Both are applied; a backup survives only if each keeps it.
     */
    public static List<String> retentionPolicies(Optional<Integer> count, Optional<String> maxAge) {
        List<String> policies = new ArrayList<>();
        count.ifPresent(n -> {
            if (n < 1) {
                throw new IllegalArgumentException("BACKUP_RETENTION_COUNT is " + n + "; keep at least 1 backup");
            }
            policies.add("REDUNDANCY " + n);
        });
        maxAge.filter(s -> !s.isBlank()).ifPresent(age -> policies.add("RECOVERY WINDOW OF " + days(age) + " DAYS"));
        return policies;
    }

    /** "30d", "36h", "90m", "45s" in whole days, rounded up (at least 1). */
    static long days(String age) {
        String text = age.trim().toLowerCase(java.util.Locale.ROOT);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)([dhms])").matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("BACKUP_RETENTION_MAX_AGE is '" + age + "'; write a whole number and a unit: 30d, 36h, 90m or 45s");
        }
        long seconds = Long.parseLong(m.group(1)) * switch (m.group(2)) {
            case "d" -> 86_400L;
            case "h" -> 3_600L;
            case "m" -> 60L;
            default -> 1L;
        };
        return Math.max(1, (seconds + 86_399) / 86_400);
    }

    private static List<String> tool(String name, ObjectStore store, List<String> options) {
        List<String> args = new ArrayList<>();
        args.add(name);
        store.endpointUrl().ifPresent(url -> {
            args.add("--endpoint-url");
            args.add(url);
        });
        args.addAll(options);
        args.add(store.destinationPath());
        args.add(store.serverName());
        return args;
    }
}
