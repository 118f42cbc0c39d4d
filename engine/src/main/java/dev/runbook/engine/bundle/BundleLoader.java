package dev.runbook.engine.bundle;

import dev.runbook.engine.files.EditorFiles;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import dev.runbook.engine.yaml.TextFiles;

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
        Path spec = directory.resolve(BundleSpecParser.FILE);
        if (!Files.isRegularFile(spec)) {
            throw new InvalidInputException(Problem.inFile(origin + "/" + BundleSpecParser.FILE,
                    "missing: a bundle directory needs a bundle.yaml (see docs/reference/bundle.md)"));
        }
        Map<String, String> files = new LinkedHashMap<>();
        files.put(BundleSpecParser.FILE, read(directory, spec));
        addTree(directory, "rules", ".drl", files);
        addTree(directory, "templates", ".yaml", files);
        return new BundleSource(origin, files);
    }

    private static void addTree(Path bundle, String sub, String extension, Map<String, String> into) {
        for (Path file : EditorFiles.files(bundle.resolve(sub), extension)) {
            into.put(bundle.relativize(file).toString().replace('\\', '/'), read(bundle, file));
        }
    }

    private static String read(Path bundle, Path file) {
        return TextFiles.read(file, bundle.relativize(file).toString(), TextFiles.MAX_INPUT_BYTES, "a bundle file");
    }
}
