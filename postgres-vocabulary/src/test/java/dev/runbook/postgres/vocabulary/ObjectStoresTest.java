package dev.runbook.postgres.vocabulary;

import dev.runbook.rules.fact.Primary;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ObjectStoresTest {

    private static final String FIELD = "spec.backup.objectStore";

    private static Primary cluster(Map<String, Object> spec) {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("apiVersion", "postgres.runbook.dev/v1alpha1");
        object.put("kind", "PostgresCluster");
        object.put("metadata", Map.of("name", "pg2", "namespace", "demo"));
        object.put("spec", spec);
        return new Primary(object);
    }

    private static Primary store(Map<String, Object> store) {
        return cluster(Map.of("backup", Map.of("objectStore", store)));
    }

    private static Map<String, Object> usable() {
        Map<String, Object> store = new LinkedHashMap<>();
        store.put("destinationPath", "s3://backups/postgres");
        store.put("endpointURL", "http://127.0.0.1:8333");
        store.put("s3Credentials", Map.of("secretName", "pg-backup-store"));
        return store;
    }

    @Test
    void aUsableStoreHasNoProblem() {
        assertThat(ObjectStores.problem(store(usable()), FIELD)).isNull();
        Map<String, Object> aws = usable();
        aws.remove("endpointURL");
        assertThat(ObjectStores.problem(store(aws), FIELD)).isNull();
        Map<String, Object> ipv6 = usable();
        ipv6.put("endpointURL", "https://[::1]:9000/");
        assertThat(ObjectStores.problem(store(ipv6), FIELD)).isNull();
    }

    @Test
    void eachUnusableFieldIsNamedWithTheFix() {
        assertThat(ObjectStores.problem(cluster(Map.of("backup", Map.of("schedule", "0 2 * * *"))), FIELD))
                .isEqualTo("spec.backup.objectStore is not set: set spec.backup.objectStore.destinationPath (s3://BUCKET/PATH) and"
                        + " spec.backup.objectStore.s3Credentials.secretName (a Secret with the keys ACCESS_KEY_ID and ACCESS_SECRET_KEY)");
        Map<String, Object> path = usable();
        path.put("destinationPath", "/var/backups");
        assertThat(ObjectStores.problem(store(path), FIELD))
                .isEqualTo("spec.backup.objectStore.destinationPath '/var/backups' is not an s3://BUCKET/PATH: write e.g. s3://backups/postgres");
        Map<String, Object> endpoint = usable();
        endpoint.put("endpointURL", "minio:9000");
        assertThat(ObjectStores.problem(store(endpoint), FIELD)).startsWith("spec.backup.objectStore.endpointURL 'minio:9000' is not an http(s) URL");
        Map<String, Object> secret = usable();
        secret.remove("s3Credentials");
        assertThat(ObjectStores.problem(store(secret), FIELD)).startsWith("spec.backup.objectStore.s3Credentials.secretName is not set");
    }

    @Test
    void aToolsMessageIsTracedToTheFieldAtFault() {
        Primary cluster = store(usable());
        assertThat(ObjectStores.hint(cluster, FIELD, "WAL 000000010000000000000003: Unable to locate credentials"))
                .startsWith("check spec.backup.objectStore.s3Credentials.secretName: the Secret pg-backup-store must exist in the namespace demo")
                .contains("kubectl create secret generic pg-backup-store --from-literal=ACCESS_KEY_ID=...");
        assertThat(ObjectStores.hint(cluster, FIELD, "An error occurred (InvalidAccessKeyId) when calling the PutObject operation"))
                .startsWith("check spec.backup.objectStore.s3Credentials.secretName");
        assertThat(ObjectStores.hint(cluster, FIELD, "An error occurred (NoSuchBucket) when calling the ListObjectsV2 operation"))
                .isEqualTo("check spec.backup.objectStore.destinationPath (s3://backups/postgres): its bucket must exist in the store");
        assertThat(ObjectStores.hint(cluster, FIELD, "Could not connect to the endpoint URL: \"http://127.0.0.1:8333/backups\""))
                .isEqualTo("check spec.backup.objectStore.endpointURL (http://127.0.0.1:8333): the store must be reachable from the pods");
        assertThat(ObjectStores.hint(cluster, FIELD, "something else"))
                .isEqualTo("check spec.backup.objectStore (s3://backups/postgres at http://127.0.0.1:8333, Secret pg-backup-store)");
    }

    @Test
    void aRestoresMessageIsTracedToTheRecoveryField() {
        Map<String, Object> recovery = new LinkedHashMap<>();
        recovery.put("source", Map.of("objectStore", usable(), "serverName", "pg"));
        recovery.put("backup", "pg-backup-nope");
        Primary cluster = cluster(Map.of("bootstrap", Map.of("recovery", recovery)));
        assertThat(ObjectStores.restoreHint(cluster, "spec.bootstrap.recovery",
                "backup 'pg-backup-nope' not found in s3://backups/postgres/pg; the store has: pg-backup-20261130-0200"))
                .isEqualTo("check spec.bootstrap.recovery.backup ('pg-backup-nope'): name a backup the store holds, or leave it out to restore the newest");
        assertThat(ObjectStores.restoreHint(cluster, "spec.bootstrap.recovery",
                "no backup in s3://backups/postgres/pg ended before the target time 2026-11-01T00:00:00Z; the store has: a"))
                .startsWith("check spec.bootstrap.recovery.targetTime (not set)");
        recovery.remove("backup");
        Primary newest = cluster(Map.of("bootstrap", Map.of("recovery", recovery)));
        assertThat(ObjectStores.restoreHint(newest, "spec.bootstrap.recovery",
                "no complete backup in s3://backups/postgres/pg; the store has: (nothing)"))
                .startsWith("check spec.bootstrap.recovery.source (s3://backups/postgres at http://127.0.0.1:8333, folder pg): it holds no backup");
        assertThat(ObjectStores.restoreHint(cluster, "spec.bootstrap.recovery", "Unable to locate credentials"))
                .startsWith("check spec.bootstrap.recovery.source.objectStore.s3Credentials.secretName");
    }

    @Test
    void retentionDaysAreWholeDaysRoundedUp() {
        assertThat(ObjectStores.days(2592000)).isEqualTo("30d");
        assertThat(ObjectStores.days(43200)).isEqualTo("1d");
        assertThat(ObjectStores.days(129600)).isEqualTo("2d");
        assertThat(ObjectStores.days(0)).isEqualTo("1d");
        assertThat(ObjectStores.days(-1)).isEmpty();
    }
}
