package dev.runbook.cli.command;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** What a bundle's invariants/ directory holds, counted from its files rather than written into a test. */
final class InvariantFiles {
    private static final Pattern RULE = Pattern.compile("(?m)^rule\\s");

    private InvariantFiles() {}

    static long rules(Path bundle) {
        try (Stream<Path> files = Files.list(bundle.resolve("invariants"))) {
            return files.filter(file -> file.toString().endsWith(".drl")).mapToLong(InvariantFiles::rulesIn).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long rulesIn(Path drl) {
        try {
            return RULE.matcher(Files.readString(drl)).results().count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
