package dev.runbook.operator.testkit;

import java.nio.file.Files;
import java.nio.file.Path;

/** Paths in the project checkout, found from the test's working directory (a module directory). */
public final class ProjectFiles {
    private ProjectFiles() {}

    public static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("runbooks/postgres-cluster"))) dir = dir.getParent();
        if (dir == null) throw new IllegalStateException("run the tests from inside the project checkout");
        return dir;
    }

    public static Path of(String relative) {
        return root().resolve(relative);
    }
}
