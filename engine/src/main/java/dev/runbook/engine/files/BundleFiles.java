package dev.runbook.engine.files;

import dev.runbook.engine.yaml.TextFiles;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The files of a bundle by their path relative to it ({@code rules/failover.drl}), wherever they are: in
 * a directory ({@link #on}), or in memory ({@link #of}: a ConfigMap's, which the operator compiles and
 * vets as it holds them, never writing them out). Loading, the scenario suite and the invariants read a
 * bundle through this, so that both read it the same way.
 */
public interface BundleFiles {
    /**
     * The text of the file at {@code path} ('/'-separated, relative to the bundle; {@code ..} allowed on
     * disk), or null when there is no such file.
     *
     * @param what what the file is, for the message of one that cannot be read (e.g. "a scenario file")
     */
    String read(String path, String what);

    /**
     * The paths of the files under {@code directory} (relative, at any depth) whose names end with
     * {@code suffix} ("" for all), in path order, without an editor's files ({@link EditorFiles}).
     */
    List<String> under(String directory, String suffix);

    /** The bundle in {@code directory}. */
    static BundleFiles on(Path directory) {
        return new BundleFiles() {
            @Override
            public String read(String path, String what) {
                Path file = directory.resolve(path).normalize();
                return Files.isRegularFile(file) ? TextFiles.read(file, path, TextFiles.MAX_INPUT_BYTES, what) : null;
            }

            @Override
            public List<String> under(String sub, String suffix) {
                return EditorFiles.files(directory.resolve(sub), suffix).stream()
                        .map(file -> directory.relativize(file).toString().replace('\\', '/')).toList();
            }
        };
    }

    /** The bundle whose files these are, by path. */
    static BundleFiles of(Map<String, String> files) {
        Map<String, String> sorted = new TreeMap<>(files);
        return new BundleFiles() {
            @Override
            public String read(String path, String what) {
                return sorted.get(Path.of(path).normalize().toString().replace('\\', '/'));
            }

            @Override
            public List<String> under(String directory, String suffix) {
                String prefix = directory + "/";
                return sorted.keySet().stream().filter(path -> path.startsWith(prefix) && path.endsWith(suffix)
                        && !EditorFiles.isTemporary(path.substring(path.lastIndexOf('/') + 1))).toList();
            }
        };
    }
}
