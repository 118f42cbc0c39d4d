package dev.runbook.cli.scaffold;

import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Writes a new bundle's files into a directory that does not exist yet; never overwrites anything. */
public final class Scaffold {
    private Scaffold() {}

    /**
     * @param directory the bundle directory to create
     * @return the paths written, relative to {@code directory}, in order
     * @throws InvalidInputException when {@code directory} exists
     */
    public static List<String> write(Path directory, NewBundle bundle) {
        if (Files.exists(directory)) {
            throw new InvalidInputException(Problem.inFile(directory.toString(),
                    "already exists: runbook new writes a new bundle and never overwrites one; choose another NAME or --dir"));
        }
        Map<String, String> files = ScaffoldFiles.of(bundle);
        try {
            for (Map.Entry<String, String> file : files.entrySet()) {
                Path path = directory.resolve(file.getKey());
                Files.createDirectories(path.getParent());
                Files.writeString(path, file.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.copyOf(files.keySet());
    }
}
