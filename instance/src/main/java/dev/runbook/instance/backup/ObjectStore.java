package dev.runbook.instance.backup;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Where Barman Cloud keeps a cluster's base backups and WAL: {@code DESTINATION/SERVER_NAME/...} in an
 * S3-compatible store. Read from the pod's environment under a prefix: {@code BACKUP_} for the store
 * this cluster writes to, {@code RECOVERY_} for the one a new cluster restores from
 * (/work/wt/BACKUP-CONTRACT.md, docs/instance-manager.md#backup-and-restore). The keys are never
 * printed ({@link #toString()} leaves them out).
 */
public record ObjectStore(String destinationPath, Optional<String> endpointUrl, String serverName, String accessKeyId, String secretAccessKey) {

    public static final String BACKUP = "BACKUP_";
    public static final String RECOVERY = "RECOVERY_";

    /** The store under {@code prefix}, or empty when {@code PREFIX DESTINATION_PATH} is not set. */
    public static Optional<ObjectStore> fromEnvironment(Map<String, String> env, String prefix, String defaultServerName) {
        String destination = value(env, prefix + "DESTINATION_PATH");
        if (destination.isEmpty()) {
            return Optional.empty();
        }
        if (!destination.startsWith("s3://")) {
            throw new IllegalArgumentException("environment variable " + prefix + "DESTINATION_PATH is '" + destination
                    + "'; it must be an s3:// URL (s3://bucket/prefix), from spec.backup.objectStore.destinationPath");
        }
        String server = value(env, prefix + "SERVER_NAME");
        return Optional.of(new ObjectStore(destination,
                Optional.of(value(env, prefix + "ENDPOINT_URL")).filter(s -> !s.isEmpty()),
                server.isEmpty() ? defaultServerName : server,
                value(env, prefix + "ACCESS_KEY_ID"),
                value(env, prefix + "ACCESS_SECRET_KEY")));
    }

    /** What the tools read their credentials from; set in their environment only, never in the manager's. */
    public Map<String, String> toolEnvironment() {
        Map<String, String> env = new LinkedHashMap<>();
        if (!accessKeyId.isEmpty()) {
            env.put("AWS_ACCESS_KEY_ID", accessKeyId);
            env.put("AWS_SECRET_ACCESS_KEY", secretAccessKey);
        }
        return env;
    }

    /** Where this cluster's objects are: {@code s3://bucket/prefix/SERVER}. */
    public String location() {
        return destinationPath.replaceAll("/+$", "") + "/" + serverName;
    }

    private static String value(Map<String, String> env, String name) {
        String value = env.get(name);
        return value == null ? "" : value.trim();
    }

    @Override
    public String toString() {
        return "ObjectStore[" + location() + endpointUrl.map(u -> " at " + u).orElse("") + (accessKeyId.isEmpty() ? ", no keys" : ", keys set") + "]";
    }
}
