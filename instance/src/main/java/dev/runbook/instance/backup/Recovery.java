package dev.runbook.instance.backup;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a new cluster restores from (the pod's {@code RECOVERY_*} variables): the store, a backup's
 * name (empty: the newest, or with a target time the newest that ended before it) and the target
 * time of a point-in-time recovery (empty: to the end of the archived WAL).
 */
public record Recovery(ObjectStore store, Optional<String> backupName, Optional<Instant> targetTime) {

    public static Optional<Recovery> fromEnvironment(Map<String, String> env, String clusterName) {
        return ObjectStore.fromEnvironment(env, ObjectStore.RECOVERY, clusterName).map(store -> new Recovery(store,
                Optional.ofNullable(env.get("RECOVERY_BACKUP_NAME")).map(String::trim).filter(s -> !s.isEmpty()),
                Optional.ofNullable(env.get("RECOVERY_TARGET_TIME")).map(String::trim).filter(s -> !s.isEmpty()).map(Recovery::time)));
    }

    private static Instant time(String text) {
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("environment variable RECOVERY_TARGET_TIME is '" + text
                    + "', not an RFC 3339 time such as 2026-12-01T10:05:00Z (spec.bootstrap.recovery.targetTime)");
        }
    }

    /** The backup to restore among those in the store, or why there is none. */
    public BackupInfo choose(List<BackupInfo> inStore) {
        List<BackupInfo> done = inStore.stream().filter(BackupInfo::done).sorted(Comparator.comparing(BackupInfo::id)).toList();
        if (backupName.isPresent()) {
            String wanted = backupName.get();
            return done.stream().filter(b -> wanted.equals(b.name()) || wanted.equals(b.id())).reduce((a, b) -> b)
                    .orElseThrow(() -> new RestoreFailed("backup '" + wanted + "' not found in " + store.location() + "; the store has: " + names(done)));
        }
        List<BackupInfo> candidates = targetTime.map(t -> done.stream().filter(b -> b.endTime() != null && b.endTime().isBefore(t)).toList())
                .orElse(done);
        if (candidates.isEmpty()) {
            throw new RestoreFailed(targetTime.map(t -> "no backup in " + store.location() + " ended before the target time " + t + "; the store has: ")
                    .orElse("no complete backup in " + store.location() + "; the store has: ") + names(inStore));
        }
        return candidates.get(candidates.size() - 1);
    }

    /** recovery_target_time as PostgreSQL reads it. */
    public Optional<String> targetTimeSetting() {
        return targetTime.map(t -> t.toString().replace('T', ' ').replace("Z", "+00"));
    }

    private static String names(List<BackupInfo> backups) {
        return backups.isEmpty() ? "(nothing)" : backups.stream().map(b -> b.label() + (b.done() ? "" : " (" + b.status() + ")"))
                .collect(Collectors.joining(", "));
    }
}
