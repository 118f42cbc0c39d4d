package dev.runbook.engine.bundle;

import dev.runbook.engine.files.BundleFiles;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The OpenAPI schemas a bundle's CRDs ({@code crds/*.yaml}) give their kinds, by apiVersion and kind:
 * what the API server validates and prunes a custom resource against. Read by the lint's spec field
 * check, by the state files' type check and by the explorer, which draws user edits from them.
 *
 * @param files    the CRD files by path ({@code crds/NAME.yaml}), for messages
 * @param schemas  {@code apiVersion kind} to the version's {@code openAPIV3Schema}
 * @param sources  {@code apiVersion kind} to the file that defines it
 */
public record CrdSchemas(Map<String, String> files, Map<String, Map<String, Object>> schemas, Map<String, String> sources) {
    public static final CrdSchemas NONE = new CrdSchemas(Map.of(), Map.of(), Map.of());

    public CrdSchemas {
        files = Map.copyOf(files);
        schemas = Map.copyOf(schemas);
        sources = Map.copyOf(sources);
    }

    /** The CRDs under {@code bundle/crds}; none without that directory. */
    public static CrdSchemas read(Path bundle) {
        Map<String, String> texts = new TreeMap<>();
        Path dir = bundle.resolve("crds");
        if (!Files.isDirectory(dir)) return NONE;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                texts.put("crds/" + file.getFileName(), Files.readString(file));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return of(texts);
    }

    /** The CRDs among a bundle's files: {@code crds/*.yaml}, as {@link #read} finds them in a directory. */
    public static CrdSchemas in(BundleFiles files) {
        Map<String, String> texts = new TreeMap<>();
        for (String path : files.under("crds", ".yaml")) {
            if (path.indexOf('/', "crds/".length()) < 0) texts.put(path, files.read(path, "a CRD file"));
        }
        return texts.isEmpty() ? NONE : of(texts);
    }

    /** The CRDs in these texts, by path. */
    @SuppressWarnings("unchecked")
    public static CrdSchemas of(Map<String, String> texts) {
        Map<String, Map<String, Object>> schemas = new LinkedHashMap<>();
        Map<String, String> sources = new LinkedHashMap<>();
        texts.forEach((file, text) -> {
            Iterable<Object> documents;
            try {
                documents = new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(text);
                for (Object document : documents) {
                    if (!(document instanceof Map<?, ?> crd) || !"CustomResourceDefinition".equals(crd.get("kind"))) continue;
                    if (!(crd.get("spec") instanceof Map<?, ?> spec) || !(spec.get("names") instanceof Map<?, ?> names)) continue;
                    for (Object v : spec.get("versions") instanceof List<?> list ? list : List.of()) {
                        if (!(v instanceof Map<?, ?> version) || !(version.get("schema") instanceof Map<?, ?> schema)) continue;
                        String key = spec.get("group") + "/" + version.get("name") + " " + names.get("kind");
                        schemas.put(key, schema.get("openAPIV3Schema") instanceof Map<?, ?> root
                                ? (Map<String, Object>) root : Map.of("type", "object"));
                        sources.put(key, file);
                    }
                }
            } catch (RuntimeException e) {
                throw new InvalidInputException(Problem.inFile(file, "not a CRD that can be read: " + e.getMessage()));
            }
        });
        return new CrdSchemas(texts, schemas, sources);
    }

    /** The schema of objects of this apiVersion and kind, or null when no CRD of the bundle defines them. */
    public Map<String, Object> schema(String apiVersion, String kind) {
        return schemas.get(apiVersion + " " + kind);
    }

    /** The file that defines the kind, for messages; null when none does. */
    public String source(String apiVersion, String kind) {
        return sources.get(apiVersion + " " + kind);
    }

    /** The schema of {@code spec} of the kind: null when no CRD defines it, {@code {type: object}} when its schema has no spec. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> specSchema(Kind kind) {
        Map<String, Object> root = schema(kind.apiVersion(), kind.kind());
        if (root == null) return null;
        return root.get("properties") instanceof Map<?, ?> properties && properties.get("spec") instanceof Map<?, ?> spec
                ? (Map<String, Object>) spec : Map.of("type", "object");
    }
}
