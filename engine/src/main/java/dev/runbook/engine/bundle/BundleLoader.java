package dev.runbook.engine.bundle;

import dev.runbook.engine.files.BundleFiles;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a bundle directory: {@code bundle.yaml}, {@code rules/*.drl}, {@code templates/*.yaml}.
 * Other directories (crds, samples, tests) belong to the bundle but not to what it compiles, so
 * they do not change its version.
 */
public final class BundleLoader {
    /** The parts of a bundle that make up its compiled form and its version. */
    public static final List<String> COMPILED_DIRECTORIES = List.of("rules/", "templates/");

    private BundleLoader() {}

    public static BundleSource load(Path directory) {
        String origin = directory.toString();
        if (!Files.isDirectory(directory)) {
            throw new InvalidInputException(Problem.inFile(origin, "not a directory: give the path of a bundle "
                    + "(the directory that holds bundle.yaml)"));
        }
        return of(origin, BundleFiles.on(directory));
    }

    /**
     * The compiled part of a bundle's files ({@code bundle.yaml}, {@code rules/*.drl}, {@code templates/*.yaml}),
     * read as {@link #load} reads a directory: a ConfigMap's, compiled as the operator holds it.
     *
     * @throws InvalidInputException when there is no {@code bundle.yaml}
     */
    public static BundleSource of(String origin, BundleFiles bundle) {
        String spec = bundle.read(BundleSpecParser.FILE, "a bundle file");
        if (spec == null) {
            throw new InvalidInputException(Problem.inFile(origin + "/" + BundleSpecParser.FILE,
                    "missing: a bundle directory needs a bundle.yaml (see docs/reference/bundle.md)"));
        }
        Map<String, String> files = new LinkedHashMap<>();
        files.put(BundleSpecParser.FILE, spec);
        for (String path : bundle.under("rules", ".drl")) files.put(path, bundle.read(path, "a bundle file"));
        for (String path : bundle.under("templates", ".yaml")) files.put(path, bundle.read(path, "a bundle file"));
        return new BundleSource(origin, files);
    }
}
