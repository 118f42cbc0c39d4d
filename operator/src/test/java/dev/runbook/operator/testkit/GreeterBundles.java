package dev.runbook.operator.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Copies of src/test/resources/bundles/greeter, whose one rule writes a greeting into a WebApp's status,
 * edited per test: another greeting, a broken rule.
 */
public final class GreeterBundles {
    public static final Path GREETER = Path.of("src/test/resources/bundles/greeter");

    private GreeterBundles() {}

    /** A copy under {@code work/copy} whose rule, and scenario, greet with {@code word}. */
    public static Path greeter(Path work, String copy, String word) {
        Path target = work.resolve(copy);
        try (Stream<Path> files = Files.walk(GREETER)) {
            for (Path file : files.toList()) {
                Path to = target.resolve(GREETER.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(to);
                } else {
                    Files.writeString(to, Files.readString(file).replace("hello", word));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return target;
    }

    /** A copy whose rule does not compile: it reads a field Primary does not have (rules/greet.drl line 8). */
    public static Path broken(Path work, String copy) {
        Path bundle = greeter(work, copy, "hello");
        edit(bundle.resolve("rules/greet.drl"), "$app : Primary()", "$app : Primary(nmae == \"shop\")");
        return bundle;
    }

    /** Replaces {@code from}, which the file must hold, with {@code to}. */
    public static void edit(Path file, String from, String to) {
        try {
            String text = Files.readString(file);
            assertThat(text).as("%s holds %s", file, from).contains(from);
            Files.writeString(file, text.replace(from, to));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
