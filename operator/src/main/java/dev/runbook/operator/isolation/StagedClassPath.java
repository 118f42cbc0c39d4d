package dev.runbook.operator.isolation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Class path entries made reachable for a user with no rights of its own: a worker started by a root
 * operator drops to an unprivileged user before bubblewrap binds its class path, and bubblewrap must then
 * reach every entry as that user. An entry every user can already reach stays where it is (the image's
 * {@code /app}); one behind a directory others may not enter is linked (same file system) or copied into a
 * directory others may read, removed when this process ends.
 */
final class StagedClassPath {
    private static final Set<PosixFilePermission> READABLE_DIRECTORY = PosixFilePermissions.fromString("rwxr-xr-x");
    private static final Set<PosixFilePermission> READABLE_FILE = PosixFilePermissions.fromString("rw-r--r--");

    private StagedClassPath() {}

    static List<String> reachable(List<String> entries, Path temporary) {
        List<String> result = new ArrayList<>();
        Path stage = null;
        for (int i = 0; i < entries.size(); i++) {
            Path entry = Path.of(entries.get(i));
            if (reachableByOthers(entry)) {
                result.add(entries.get(i));
                continue;
            }
            try {
                if (stage == null) stage = newStage(temporary);
                Path staged = stage.resolve(i + "-" + entry.getFileName());
                if (Files.isDirectory(entry)) copyTree(entry, staged); else linkOrCopy(entry, staged);
                result.add(staged.toString());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot make the class path entry " + entry + " readable for the worker's user in "
                        + temporary + ": " + e.getMessage(), e);
            }
        }
        return List.copyOf(result);
    }

    /** Whether others may enter every directory above the entry and read the entry itself. */
    static boolean reachableByOthers(Path entry) {
        try {
            Set<PosixFilePermission> own = Files.getPosixFilePermissions(entry);
            if (!own.contains(PosixFilePermission.OTHERS_READ)) return false;
            if (Files.isDirectory(entry) && !own.contains(PosixFilePermission.OTHERS_EXECUTE)) return false;
            for (Path dir = entry.toAbsolutePath().getParent(); dir != null; dir = dir.getParent()) {
                if (!Files.getPosixFilePermissions(dir).contains(PosixFilePermission.OTHERS_EXECUTE)) return false;
            }
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    private static Path newStage(Path temporary) throws IOException {
        Path stage = Files.createTempDirectory(temporary, "runbook-worker-classpath-");
        Files.setPosixFilePermissions(stage, READABLE_DIRECTORY);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> removeTree(stage), "runbook-staged-classpath-cleanup"));
        return stage;
    }

    private static void linkOrCopy(Path file, Path staged) throws IOException {
        try {
            Files.createLink(staged, file); // the same file: readable by others when the file itself is (checked above for the copy)
            if (Files.getPosixFilePermissions(staged).contains(PosixFilePermission.OTHERS_READ)) return;
            Files.delete(staged);
        } catch (FileSystemException | UnsupportedOperationException e) {
            // Another file system, or links not allowed: copy.
        }
        Files.copy(file, staged, StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(staged, READABLE_FILE);
    }

    private static void copyTree(Path dir, Path staged) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path from : files.toList()) {
                Path to = staged.resolve(dir.relativize(from).toString());
                if (Files.isDirectory(from)) {
                    Files.createDirectories(to);
                    Files.setPosixFilePermissions(to, READABLE_DIRECTORY);
                } else {
                    Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
                    Files.setPosixFilePermissions(to, READABLE_FILE);
                }
            }
        }
    }

    private static void removeTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(file);
        } catch (IOException e) {
            // Left in the temporary directory: nothing depends on it once this process has ended.
        }
    }
}
