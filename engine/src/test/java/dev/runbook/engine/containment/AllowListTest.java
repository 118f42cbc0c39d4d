package dev.runbook.engine.containment;

import dev.runbook.rules.fact.Primary;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The allow-list names every class it allows: no package wildcards, and nothing it names is missing. */
class AllowListTest {
    private final AllowList standard = AllowList.standard();

    @Test
    void everyClassOfTheVocabularyIsListedByName() throws IOException, URISyntaxException {
        Path location = Path.of(Primary.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> vocabulary;
        // The rules module's classes: a directory, or its jar when the build packaged it.
        try (FileSystem jar = Files.isDirectory(location) ? null : FileSystems.newFileSystem(location)) {
            Path classes = jar == null ? location : jar.getPath("/");
            try (Stream<Path> files = Files.walk(classes)) {
                vocabulary = files.map(f -> classes.relativize(f).toString().replace('\\', '/'))
                        .filter(f -> f.startsWith("dev/runbook/rules/") && f.endsWith(".class") && !f.contains("$"))
                        .map(f -> f.substring(0, f.length() - ".class".length()).replace('/', '.'))
                        .toList();
            }
        }
        assertThat(vocabulary).hasSizeGreaterThan(30);
        assertThat(standard.classes()).as("a class added to the vocabulary is listed in allow-list.txt, by a decision")
                .containsAll(vocabulary);
    }

    @Test
    void everyListedClassExists() {
        for (String name : standard.classes()) {
            assertThat(loads(name)).as("allow-list.txt names %s, which this JVM does not have", name).isTrue();
        }
    }

    @Test
    void whatWritesFilesOrRunsOnOtherThreadsIsNotAllowed() {
        assertThat(standard.permitsClass("java.util.Formatter")).isFalse();
        assertThat(standard.permitsClass("java.util.stream.StreamSupport")).isFalse();
        assertThat(standard.permitsClass("java.util.Scanner")).isFalse();
        assertThat(standard.permitsClass("java.util.Timer")).isFalse();
        assertThat(standard.permitsClass("java.util.concurrent.ForkJoinPool")).isFalse();
        assertThat(standard.permitsMember("java.util.List", "parallelStream")).isFalse();
        assertThat(standard.permitsMember("java.util.stream.LongStream", "range")).isFalse();
        assertThat(standard.permitsMember("java.util.stream.LongStream", "of")).isTrue();
        assertThat(standard.permitsClass("java.util.ArrayList")).isTrue();
    }

    @Test
    void aPackageWildcardIsRefusedNamingWhereItWasWritten() {
        assertThatThrownBy(() -> AllowList.of(List.of("com.example.pricing.*")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the given entries: the allow-list entry com.example.pricing.* is a package wildcard")
                .hasMessageContaining("name each class");
        assertThatThrownBy(() -> AllowList.of(List.of("com.example..")))
                .hasMessageContaining("com.example.. is a package wildcard");
    }

    private static boolean loads(String name) {
        try {
            Class.forName(name, false, AllowListTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
