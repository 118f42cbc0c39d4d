package dev.runbook.instance.backup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The bytes of a data directory's files that a base backup copies: all but pg_wal (the WAL goes to the store separately). */
final class DataDirectorySize {
    private DataDirectorySize() {
    }

    static long of(Path dataDir) {
        Path wal = dataDir.resolve("pg_wal");
        try (Stream<Path> files = Files.walk(dataDir)) {
            return files.filter(f -> !f.startsWith(wal)).filter(Files::isRegularFile).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    return 0;    // removed meanwhile (a temporary file of the server)
                }
            }).sum();
        } catch (IOException | UncheckedIOException e) {
            return 0;
        }
    }
}
