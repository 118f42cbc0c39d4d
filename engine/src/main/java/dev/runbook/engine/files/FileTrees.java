package dev.runbook.engine.files;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removing the temporary directory trees the engine and the operator unpack or hand over files in. */
public final class FileTrees {
    private static final Logger LOG = LoggerFactory.getLogger(FileTrees.class);

    private FileTrees() {}

    /** Deletes {@code directory} and everything in it, deepest first; a leftover temporary tree is harmless, so failures are only logged. */
    public static void deleteQuietly(Path directory) {
        if (directory == null) return;
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            LOG.debug("could not delete {}: {}", directory, e.getMessage());
        }
    }
}
