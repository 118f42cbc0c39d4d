package dev.runbook.runbooks;

import com.networknt.schema.Error;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The PostgresCluster CRD's schema, checked offline with a JSON Schema validator (the subset the
 * CRD uses — types, required, minimum/maximum, pattern, enum — means the same in both): every
 * sample is accepted, and invalid specs are refused naming the field.
 */
class PostgresClusterCrdTest {
    private static final Path BUNDLE = Path.of("postgres-cluster");

    private static List<Error> validate(Map<String, Object> object) throws IOException {
        return CrdSchema.of(BUNDLE.resolve("crds/postgresclusters.postgres.runbook.dev.yaml")).validate(object);
    }

    private static List<Map<String, Object>> clustersInSamples() throws IOException {
        return CrdSchema.samplesOfKind(BUNDLE, "PostgresCluster");
    }

    @Test
    void everySampleClusterIsValid() throws IOException {
        List<Map<String, Object>> clusters = clustersInSamples();
        assertThat(clusters).isNotEmpty();
        for (Map<String, Object> cluster : clusters) {
            assertThat(validate(cluster)).as("%s", cluster.get("metadata")).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            instances       | 0                | instances
            instances       | 10               | instances
            image           | postgres         | image
            image           | '{evil:1}'       | image
            image           | '[a]:1'          | image
            failoverDelay   | soon             | failoverDelay
            storage.size    | ten gigs         | size
            upgrade.strategy| yolo             | strategy
            switchover.targetInstance | Pg_1   | targetInstance
            backup.retention.count | 0         | count
            backup.objectStore.destinationPath | /var/backups      | destinationPath
            backup.objectStore.destinationPath | 's3://b/x\nhostPID: true' | destinationPath
            backup.objectStore.endpointURL | minio:9000            | endpointURL
            backup.objectStore.endpointURL | 'http://h:1/{evil}'   | endpointURL
            backup.objectStore.s3Credentials.secretName | Store_Keys | secretName
            bootstrap.recovery.backup | 'a b'                      | backup
            bootstrap.recovery.targetTime | yesterday              | targetTime
            bootstrap.recovery.source.serverName | PG              | serverName
            """)
    void invalidSpecsAreRefusedNamingTheField(String path, String value, String field) throws IOException {
        Map<String, Object> cluster = new Yaml().load(Files.readString(BUNDLE.resolve("samples/cluster.yaml")));
        Object typed = value.matches("-?\\d+") ? (Object) Integer.parseInt(value) : value;
        set(cluster, "spec." + path, typed);

        List<Error> errors = validate(cluster);
        assertThat(errors).as("spec.%s = %s must be refused", path, value).isNotEmpty();
        assertThat(errors.toString()).contains(field);
    }

    @Test
    void anObjectStoreWithoutItsCredentialsIsRefused() throws IOException {
        Map<String, Object> cluster = new Yaml().load(Files.readString(BUNDLE.resolve("samples/cluster.yaml")));
        set(cluster, "spec.backup.objectStore", Map.of("destinationPath", "s3://backups/pg"));
        assertThat(validate(cluster).toString()).contains("s3Credentials");
    }

    @Test
    void aRecoveryWithoutASourceStoreIsRefused() throws IOException {
        Map<String, Object> cluster = new Yaml().load(Files.readString(BUNDLE.resolve("samples/cluster.yaml")));
        set(cluster, "spec.bootstrap.recovery", Map.of("source", Map.of("serverName", "pg")));
        assertThat(validate(cluster).toString()).contains("objectStore");
    }

    @Test
    void aClusterWithoutAnImageIsRefused() throws IOException {
        Map<String, Object> cluster = new Yaml().load(Files.readString(BUNDLE.resolve("samples/cluster.yaml")));
        ((Map<?, ?>) cluster.get("spec")).remove("image");
        assertThat(validate(cluster).toString()).contains("image");
    }

    private static void set(Map<String, Object> root, String path, Object value) {
        CrdSchema.set(root, path, value);
    }
}
