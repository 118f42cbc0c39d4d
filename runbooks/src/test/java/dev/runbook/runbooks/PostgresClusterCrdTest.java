package dev.runbook.runbooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The PostgresCluster CRD's schema, checked offline with a JSON Schema validator (the subset the
 * CRD uses — types, required, minimum/maximum, pattern, enum — means the same in both): every
 * sample is accepted, and invalid specs are refused naming the field.
 */
class PostgresClusterCrdTest {
    private static final Path BUNDLE = Path.of("postgres-cluster");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Schema schema() throws IOException {
        Map<String, Object> crd = new Yaml().load(Files.readString(BUNDLE.resolve("crds/postgresclusters.postgres.runbook.dev.yaml")));
        Object openApi = ((Map<?, ?>) ((Map<?, ?>) ((List<?>) ((Map<?, ?>) crd.get("spec")).get("versions")).get(0)).get("schema")).get("openAPIV3Schema");
        return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4).getSchema(JSON.valueToTree(openApi));
    }

    private static List<Error> validate(Map<String, Object> object) throws IOException {
        JsonNode node = JSON.valueToTree(object);
        return schema().validate(node);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> clustersInSamples() throws IOException {
        List<Map<String, Object>> clusters = new ArrayList<>();
        try (Stream<Path> files = Files.list(BUNDLE.resolve("samples"))) {
            for (Path file : files.sorted().toList()) {
                for (Object doc : new Yaml().loadAll(Files.readString(file))) {
                    if (doc instanceof Map<?, ?> map && "PostgresCluster".equals(map.get("kind"))) {
                        Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) map);
                        copy.remove("status");
                        clusters.add(copy);
                    }
                }
            }
        }
        return clusters;
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
    void aClusterWithoutAnImageIsRefused() throws IOException {
        Map<String, Object> cluster = new Yaml().load(Files.readString(BUNDLE.resolve("samples/cluster.yaml")));
        ((Map<?, ?>) cluster.get("spec")).remove("image");
        assertThat(validate(cluster).toString()).contains("image");
    }

    @SuppressWarnings("unchecked")
    private static void set(Map<String, Object> root, String path, Object value) {
        String[] steps = path.split("\\.");
        Map<String, Object> level = root;
        for (int i = 0; i < steps.length - 1; i++) {
            level = (Map<String, Object>) level.computeIfAbsent(steps[i], k -> new LinkedHashMap<>());
        }
        level.put(steps[steps.length - 1], value);
    }
}
