package dev.runbook.operator.isolation;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The class path a worker runs on: this process's, each entry as an absolute path, with the entries a
 * jar's manifest names ({@code Class-Path}, as a test runner's launcher jar has) spelled out, so that
 * the sandbox can bind exactly these files read-only and nothing else. Read once.
 */
final class WorkerClassPath {
    private static final List<String> ENTRIES = read();
    private static volatile List<String> reachable;

    private WorkerClassPath() {}

    static List<String> entries() { return ENTRIES; }

    /**
     * The entries at paths any user can reach, for a worker that runs as an unprivileged user: an entry
     * behind a directory others may not enter (a build's {@code ~/.m2} under {@code /root}) is staged once,
     * linked or else copied, into a directory of this process's own under {@code java.io.tmpdir}.
     */
    static List<String> reachableByAll() {
        List<String> staged = reachable;
        if (staged == null) {
            synchronized (WorkerClassPath.class) {
                if (reachable == null) reachable = StagedClassPath.reachable(ENTRIES, Path.of(System.getProperty("java.io.tmpdir")));
                staged = reachable;
            }
        }
        return staged;
    }

    private static List<String> read() {
        Set<String> entries = new LinkedHashSet<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.isEmpty()) continue;
            add(Path.of(entry).toAbsolutePath().normalize(), entries);
        }
        return List.copyOf(entries);
    }

    private static void add(Path entry, Set<String> entries) {
        if (!Files.exists(entry) || !entries.add(entry.toString())) return;
        if (!entry.toString().endsWith(".jar")) return;
        try (JarFile jar = new JarFile(entry.toFile())) {
            Manifest manifest = jar.getManifest();
            String classPath = manifest == null ? null : manifest.getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
            if (classPath == null) return;
            for (String reference : classPath.trim().split("\\s+")) {
                if (reference.isEmpty()) continue;
                add(resolve(entry, reference), entries);
            }
        } catch (IOException e) {
            // Not a readable jar: the JVM will say so itself.
        }
    }

    /** A manifest's reference is a URL relative to the jar's directory (or an absolute file: URL). */
    private static Path resolve(Path jar, String reference) {
        try {
            return Path.of(jar.getParent().toUri().resolve(new URI(reference))).toAbsolutePath().normalize();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return jar.resolveSibling(reference).toAbsolutePath().normalize();
        }
    }
}
