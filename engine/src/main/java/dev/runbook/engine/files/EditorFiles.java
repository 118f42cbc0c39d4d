package dev.runbook.engine.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The files editors write beside the one being edited, which are never part of a bundle: swap files,
 * backups, autosaves, the temporary files of a safe save. Nothing reads them as part of a bundle (an
 * emacs lock {@code rules/.#x.drl} is no rule file), {@code runbook pack} does not carry them, and
 * {@code runbook test --watch} ignores their changes, so that a save runs the scenarios once.
 */
public final class EditorFiles {
    /** By file name, with the editors that write them. */
    private static final List<Pattern> TEMPORARY = List.of(
            Pattern.compile("\\..*"),                         // hidden: .x.swp (vim), .#x (emacs lock), .goutputstream-* (GNOME)
            Pattern.compile(".*~"),                           // backups: x~ (emacs, vim, nano)
            Pattern.compile("#.*#"),                          // emacs autosave: #x#
            Pattern.compile("\\d+"),                          // vim's check that the directory is writable: 4913
            Pattern.compile(".*\\.(sw[a-p]|swx|tmp|temp|bak|orig|kate-swp)"), // vim swap, temporaries, backups, Kate
            Pattern.compile(".*___jb_(tmp|old|bak)___"));     // JetBrains' safe write

    private EditorFiles() {}

    /**
     * The files of a bundle's directory whose names end with {@code suffix} ("" for all), in path order,
     * without an editor's files: what the loader, the scenario suite, the invariants and {@code pack} read.
     * Empty when the directory does not exist.
     */
    public static List<Path> files(Path directory, String suffix) {
        if (!Files.isDirectory(directory)) return List.of();
        try (Stream<Path> paths = Files.walk(directory)) {
            return paths.filter(Files::isRegularFile)
                    .filter(p -> p.getFileName().toString().endsWith(suffix) && !isTemporary(p.getFileName().toString()))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether a file of this name is an editor's, not the user's. */
    public static boolean isTemporary(String fileName) {
        for (Pattern pattern : TEMPORARY) {
            if (pattern.matcher(fileName).matches()) return true;
        }
        return false;
    }
}
