package dev.runbook.operator.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * A reader's working directory: the project's files as a clone of this checkout has them (the tracked
 * files and the new ones git does not ignore, as they are now), and nothing built or left behind by
 * earlier runs, but the {@code runbook} jar: its script would build it again on first use, a minute a
 * reader has already spent, and copied after the sources it stays newer than them.
 */
final class FreshClone {
    private static final List<String> BUILT = List.of("cli/target/runbook.jar");

    private FreshClone() {}

    /** Copies the project at {@code root} into the new directory {@code into}, and returns it. */
    static Path of(Path root, Path into) throws IOException, InterruptedException {
        for (String file : files(root)) copy(root, into, file);
        for (String file : BUILT) {
            if (Files.isRegularFile(root.resolve(file))) copy(root, into, file);
        }
        return into;
    }

    private static List<String> files(Path root) throws IOException, InterruptedException {
        Process git = new ProcessBuilder("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
                .directory(root.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String listing = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (git.waitFor() != 0) throw new IllegalStateException("git ls-files failed in " + root);
        return List.of(listing.split("\0")).stream().filter(f -> !f.isEmpty()).toList();
    }

    private static void copy(Path root, Path into, String file) throws IOException {
        Path source = root.resolve(file);
        Path target = into.resolve(file);
        if (Files.isSymbolicLink(source)) { // a link git keeps as a link (deploy/chart/crds): a clone has the link
            Files.createDirectories(target.getParent());
            Files.deleteIfExists(target);
            Files.createSymbolicLink(target, Files.readSymbolicLink(source));
            return;
        }
        if (!Files.isRegularFile(source)) return; // deleted in the working tree, not yet committed
        Files.createDirectories(target.getParent());
        Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES, StandardCopyOption.REPLACE_EXISTING);
    }
}
