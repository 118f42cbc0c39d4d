package dev.runbook.operator.isolation;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Finds a program by name on this process's PATH, then in /usr/bin and /bin. */
final class Executables {
    private Executables() {}

    static Optional<Path> find(String name) {
        String path = System.getenv("PATH");
        String search = (path == null ? "" : path) + File.pathSeparator + "/usr/bin" + File.pathSeparator + "/bin";
        for (String directory : search.split(File.pathSeparator)) {
            if (directory.isEmpty()) continue;
            Path candidate = Path.of(directory, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) return Optional.of(candidate);
        }
        return Optional.empty();
    }
}
