package dev.runbook.runbooks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A bundle CRD's schema, checked offline with a JSON Schema validator (the subset CRDs use — types,
 * required, minimum/maximum, pattern, enum — means the same in both), and the custom resources of a
 * bundle's samples to check with it.
 */
final class CrdSchema {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Schema schema;

    private CrdSchema(Schema schema) {
        this.schema = schema;
    }

    static CrdSchema of(Path crdFile) throws IOException {
        Map<String, Object> crd = new Yaml().load(Files.readString(crdFile));
        Object openApi = ((Map<?, ?>) ((Map<?, ?>) ((List<?>) ((Map<?, ?>) crd.get("spec")).get("versions")).get(0)).get("schema")).get("openAPIV3Schema");
        return new CrdSchema(SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4).getSchema(JSON.valueToTree(openApi)));
    }

    List<Error> validate(Map<String, Object> object) {
        return schema.validate(JSON.valueToTree(object));
    }

    /** Every object of {@code kind} in the bundle's samples, without its status. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> samplesOfKind(Path bundle, String kind) throws IOException {
        List<Map<String, Object>> objects = new ArrayList<>();
        try (Stream<Path> files = Files.list(bundle.resolve("samples"))) {
            for (Path file : files.sorted().toList()) {
                for (Object doc : new Yaml().loadAll(Files.readString(file))) {
                    if (doc instanceof Map<?, ?> map && kind.equals(map.get("kind"))) {
                        Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) map);
                        copy.remove("status");
                        objects.add(copy);
                    }
                }
            }
        }
        return objects;
    }

    /** Sets a field by dotted path, creating maps on the way. */
    @SuppressWarnings("unchecked")
    static void set(Map<String, Object> root, String path, Object value) {
        String[] steps = path.split("\\.");
        Map<String, Object> level = root;
        for (int i = 0; i < steps.length - 1; i++) {
            level = (Map<String, Object>) level.computeIfAbsent(steps[i], k -> new LinkedHashMap<>());
        }
        level.put(steps[steps.length - 1], value);
    }
}
