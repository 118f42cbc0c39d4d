package dev.runbook.operator.reload;

import dev.runbook.engine.files.EditorFiles;
import dev.runbook.engine.bundle.BundleSpecParser;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A bundle as the data of a ConfigMap, and back. ConfigMap keys cannot hold a {@code /}, so a file's
 * path becomes a flat key with {@code __} for each {@code /}: {@code rules/failover.drl} is the key
 * {@code rules__failover.drl}. A bundle ConfigMap holds {@code bundle.yaml} and every file under
 * {@link #DIRECTORIES}: the rules and templates it runs, and the scenarios (with the samples they
 * read) that must pass before a reloaded bundle runs, and the invariants they check. See docs/shipping.md.
 */
public final class BundleConfigMaps {
    /** The label that marks a ConfigMap as a bundle; its value is the bundle's name. */
    public static final String LABEL = "runbook.dev/bundle";
    /** The directories of a bundle that a ConfigMap carries. */
    public static final List<String> DIRECTORIES = List.of("rules", "templates", "tests", "samples", "invariants");
    static final String SEPARATOR = "__";
    /** What Kubernetes accepts as a ConfigMap key. */
    private static final Pattern KEY = Pattern.compile("[-._a-zA-Z0-9]+");
    /** The API server refuses a ConfigMap whose data passes 1 MiB; this leaves room for the rest of it. */
    public static final int MAX_DATA_BYTES = 1024 * 1024 - 16 * 1024;

    private BundleConfigMaps() {}

    /** The ConfigMap key of a file of the bundle, by its path relative to the bundle. */
    public static String key(String path) {
        return path.replace("/", SEPARATOR);
    }

    /** ConfigMap data as the bundle's files, by path (keys checked by {@link #unpack} first). */
    public static Map<String, String> files(Map<String, String> data) {
        Map<String, String> files = new TreeMap<>();
        data.forEach((key, text) -> files.put(path(key), text == null ? "" : text));
        return files;
    }

    /** The path of the file that a key holds. */
    static String path(String key) {
        return key.replace(SEPARATOR, "/");
    }

    /**
     * Reads a bundle directory into ConfigMap data, in key order.
     *
     * @throws InvalidInputException naming each file that cannot be carried, or the size when too big
     */
    public static Map<String, String> pack(Path bundle) {
        Map<String, String> data = new TreeMap<>();
        List<Problem> problems = new ArrayList<>();
        Path spec = bundle.resolve(BundleSpecParser.FILE);
        if (!Files.isRegularFile(spec)) {
            throw new InvalidInputException(Problem.inFile(bundle + "/" + BundleSpecParser.FILE,
                    "missing: a bundle directory needs a bundle.yaml (see docs/reference/bundle.md)"));
        }
        add(bundle, spec, data, problems);
        for (String directory : DIRECTORIES) {
            for (Path file : EditorFiles.files(bundle.resolve(directory), "")) add(bundle, file, data, problems);
        }
        if (!problems.isEmpty()) throw new InvalidInputException(problems);
        int size = size(data);
        if (size > MAX_DATA_BYTES) {
            throw new InvalidInputException(Problem.inFile(bundle.toString(), "the bundle's files add up to " + size
                    + " bytes, more than the " + MAX_DATA_BYTES + " a bundle ConfigMap may carry: move large samples out "
                    + "of the bundle, or ship it in the operator's image with --bundle"));
        }
        return data;
    }

    /**
     * Writes ConfigMap data out as a bundle directory under {@code into}, which must be empty.
     *
     * @param origin names the ConfigMap in messages
     * @throws InvalidInputException naming each key that is not a bundle file
     */
    public static void unpack(String origin, Map<String, String> data, Path into) {
        check(origin, data);
        data.forEach((key, text) -> {
            Path file = into.resolve(path(key));
            try {
                Files.createDirectories(file.getParent());
                Files.writeString(file, text == null ? "" : text, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /**
     * The bundle's files that ConfigMap data carries, by path, once every key is checked to be a bundle file.
     *
     * @param origin names the ConfigMap in messages
     * @throws InvalidInputException naming each key that is not a bundle file
     */
    public static Map<String, String> bundleFiles(String origin, Map<String, String> data) {
        check(origin, data);
        return files(data);
    }

    /** Checks that {@code data} holds {@code bundle.yaml} and that every key is a bundle file. */
    private static void check(String origin, Map<String, String> data) {
        List<Problem> problems = new ArrayList<>();
        if (!data.containsKey(BundleSpecParser.FILE)) {
            problems.add(Problem.inFile(origin, "no key bundle.yaml: a bundle ConfigMap holds bundle.yaml and its files "
                    + "(write it with `runbook pack DIR`)"));
        }
        data.forEach((key, text) -> {
            if (!isBundleFile(key)) {
                problems.add(Problem.inFile(origin, "key " + key + ": not a bundle file: keys are bundle.yaml and "
                        + String.join(", ", DIRECTORIES.stream().map(d -> d + SEPARATOR + "NAME").toList())
                        + " (" + SEPARATOR + " for each / of the path; `runbook pack DIR` writes them)"));
            }
        });
        if (!problems.isEmpty()) throw new InvalidInputException(problems);
    }

    /** {@code bundle.yaml}, or a path under one of {@link #DIRECTORIES} with no empty, "." or ".." part. */
    private static boolean isBundleFile(String key) {
        if (key.equals(BundleSpecParser.FILE)) return true;
        String[] parts = path(key).split("/", -1);
        return parts.length >= 2 && DIRECTORIES.contains(parts[0])
                && Arrays.stream(parts).noneMatch(part -> part.isEmpty() || part.equals(".") || part.equals(".."));
    }

    private static void add(Path bundle, Path file, Map<String, String> data, List<Problem> problems) {
        String path = bundle.relativize(file).toString().replace('\\', '/');
        String key = key(path);
        if (!KEY.matcher(key).matches()) {
            problems.add(Problem.inFile(path, "cannot be a ConfigMap key: file names may use letters, digits, '-', '_' and '.'"));
            return;
        }
        if (path.replace("/", "").contains(SEPARATOR)) {
            problems.add(Problem.inFile(path, "a file name with '" + SEPARATOR + "' cannot be told apart from a directory "
                    + "in a ConfigMap key: rename it"));
            return;
        }
        try {
            data.put(key, Files.readString(file, StandardCharsets.UTF_8));
        } catch (MalformedInputException e) {
            problems.add(Problem.inFile(path, "not UTF-8 text: a bundle ConfigMap carries text files only"));
        } catch (IOException e) {
            problems.add(Problem.inFile(path, "cannot be read: " + e.getMessage()));
        }
    }

    private static int size(Map<String, String> data) {
        int size = 0;
        for (var entry : data.entrySet()) {
            size += entry.getKey().getBytes(StandardCharsets.UTF_8).length + entry.getValue().getBytes(StandardCharsets.UTF_8).length;
        }
        return size;
    }
}
