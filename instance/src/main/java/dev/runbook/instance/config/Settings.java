package dev.runbook.instance.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * What one instance manager is told by its pod: who it is, where its data lives, and how to reach
 * the others. Read once from the environment at start; immutable. The password is kept here only
 * to hand it to the server and the client tools, never printed ({@link #toString()} leaves it out).
 */
public record Settings(
        String podName,
        String namespace,
        String clusterName,
        Path dataDir,
        Path runDir,
        Path binDir,
        int port,
        String listenAddresses,
        int httpPort,
        String password,
        Optional<Path> addressFile,
        Duration interval) {

    public static final String POD_NAME = "POD_NAME";
    public static final String POD_NAMESPACE = "POD_NAMESPACE";
    public static final String CLUSTER_NAME = "CLUSTER_NAME";
    public static final String PGDATA = "PGDATA";
    public static final String RUN_DIR = "RUNBOOK_INSTANCE_RUN_DIR";
    public static final String PG_BIN = "PG_BIN";
    public static final String PGPORT = "PGPORT";
    public static final String LISTEN = "RUNBOOK_INSTANCE_LISTEN";
    public static final String HTTP_PORT = "RUNBOOK_INSTANCE_HTTP_PORT";
    public static final String PASSWORD = "POSTGRES_PASSWORD";
    public static final String ADDRESSES = "RUNBOOK_INSTANCE_ADDRESSES";
    public static final String INTERVAL = "RUNBOOK_INSTANCE_INTERVAL_MS";

    /** The PostgreSQL user the instance manager, replication and pg_rewind connect as. */
    public static final String SUPERUSER = "postgres";

    public static Settings fromEnvironment(Map<String, String> env) {
        Path dataDir = Path.of(required(env, PGDATA));
        return new Settings(
                required(env, POD_NAME),
                required(env, POD_NAMESPACE),
                required(env, CLUSTER_NAME),
                dataDir,
                Path.of(env.getOrDefault(RUN_DIR, dataDir.resolveSibling("run").toString())),
                Path.of(env.getOrDefault(PG_BIN, "/usr/lib/postgresql/16/bin")),
                integer(env, PGPORT, 5432),
                env.getOrDefault(LISTEN, "*"),
                integer(env, HTTP_PORT, 8000),
                required(env, PASSWORD),
                Optional.ofNullable(env.get(ADDRESSES)).filter(s -> !s.isBlank()).map(Path::of),
                Duration.ofMillis(integer(env, INTERVAL, 1000)));
    }

    /** The name PostgreSQL carries as {@code cluster_name}: an instance refuses to follow any other. */
    public String qualifiedClusterName() {
        return namespace + "/" + clusterName;
    }

    private static String required(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("environment variable " + name + " is not set; the StatefulSet template of the"
                    + " postgres-cluster runbook sets it (see docs/instance-manager.md#settings)");
        }
        return value;
    }

    private static int integer(Map<String, String> env, String name, int fallback) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("environment variable " + name + " is '" + value + "', not a whole number");
        }
    }

    @Override
    public String toString() {
        return "Settings[pod=" + namespace + "/" + podName + ", cluster=" + clusterName + ", data=" + dataDir
                + ", port=" + port + ", http=" + httpPort + ", addresses=" + addressFile.map(Path::toString).orElse("cluster DNS") + "]";
    }
}
