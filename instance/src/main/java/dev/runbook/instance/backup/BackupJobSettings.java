package dev.runbook.instance.backup;

import dev.runbook.postgres.contract.PostgresContract;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What the backup Job's pod says (templates/backup-job.yaml of the postgres-cluster runbook). */
public record BackupJobSettings(String namespace, String clusterName, String jobName, String sourcePod, ObjectStore store,
                                List<String> retentionPolicies, Optional<Path> addressFile, Path callerToken) {


    public static BackupJobSettings fromEnvironment(Map<String, String> env) {
        String cluster = required(env, "CLUSTER_NAME");
        ObjectStore store = ObjectStore.fromEnvironment(env, ObjectStore.BACKUP, cluster).orElseThrow(() -> new IllegalArgumentException(
                "environment variable BACKUP_DESTINATION_PATH is not set: the cluster has no spec.backup.objectStore to back up to"));
        Optional<Integer> count = Optional.ofNullable(env.get("BACKUP_RETENTION_COUNT")).map(String::trim).filter(s -> !s.isEmpty()).map(s -> {
            try {
                return Integer.parseInt(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("environment variable BACKUP_RETENTION_COUNT is '" + s + "', not a whole number");
            }
        });
        return new BackupJobSettings(required(env, "POD_NAMESPACE"), cluster, required(env, "BACKUP_JOB_NAME"), required(env, "BACKUP_SOURCE_POD"),
                store, BarmanArgs.retentionPolicies(count, Optional.ofNullable(env.get("BACKUP_RETENTION_MAX_AGE"))),
                Optional.ofNullable(env.get("RUNBOOK_INSTANCE_ADDRESSES")).filter(s -> !s.isBlank()).map(Path::of),
                Path.of(Optional.ofNullable(env.get("RUNBOOK_CALLER_TOKEN_FILE")).filter(s -> !s.isBlank()).orElse(PostgresContract.CALLER_TOKEN_FILE)));
    }

    private static String required(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("environment variable " + name + " is not set; the backup Job template of the"
                    + " postgres-cluster runbook sets it (docs/instance-manager.md#the-backup-job)");
        }
        return value.trim();
    }
}
