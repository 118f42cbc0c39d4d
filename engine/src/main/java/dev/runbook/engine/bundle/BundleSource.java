package dev.runbook.engine.bundle;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * The files of a bundle, by path relative to the bundle ({@code bundle.yaml}, {@code rules/x.drl},
 * {@code templates/x.yaml}, ...), whether read from a directory or from a ConfigMap. Its version
 * is a hash of the content, so the same files always give the same version.
 */
public final class BundleSource {
    private final String origin;
    private final Map<String, String> files;

    /** @param origin where the files came from, for messages (a directory or a ConfigMap) */
    public BundleSource(String origin, Map<String, String> files) {
        this.origin = origin;
        this.files = Collections.unmodifiableMap(new TreeMap<>(files));
    }

    public String origin() { return origin; }

    public Map<String, String> files() { return files; }

    public String file(String path) { return files.get(path); }

    /** The files under a directory of the bundle, e.g. {@code rules/}, with their relative paths. */
    public Map<String, String> filesUnder(String directory, String extension) {
        Map<String, String> result = new TreeMap<>();
        files.forEach((path, text) -> {
            if (path.startsWith(directory) && path.endsWith(extension)) result.put(path, text);
        });
        return result;
    }

    /** The first 12 hex digits of the SHA-256 of every path and content, in path order. */
    public String contentHash() {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            files.forEach((path, text) -> {
                digest.update(path.getBytes(StandardCharsets.UTF_8));
                digest.update((byte) 0);
                digest.update(text.getBytes(StandardCharsets.UTF_8));
                digest.update((byte) 0);
            });
            return HexFormat.of().formatHex(digest.digest()).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
