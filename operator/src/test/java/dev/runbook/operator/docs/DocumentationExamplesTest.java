package dev.runbook.operator.docs;

import dev.runbook.operator.cli.RunbookCommand;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the examples in README.md and docs/ so that they cannot drift from the product:
 * <ul>
 *   <li>a block whose info string has {@code file=PATH} must appear verbatim in that file;</li>
 *   <li>a {@code console} block is a session: each {@code $ ./runbook ...} line is run (from the
 *       project root, with the clock at {@link #NOW}) and must print the lines below it (stdout, then
 *       stderr); a line {@code ...} stands for any number of lines; {@code exit=N} in the info string
 *       sets the expected exit code of every command in the block (default 0).</li>
 * </ul>
 */
class DocumentationExamplesTest {
    static final Instant NOW = Instant.parse("2026-11-30T09:00:00Z");
    private static final Path ROOT = root();

    private static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("runbook"))) dir = dir.getParent();
        if (dir == null) throw new IllegalStateException("run from inside the project checkout");
        return dir;
    }

    @Test
    void theDocsHaveExamplesOfBothKinds() throws IOException {
        List<MarkdownBlocks.Block> blocks = MarkdownBlocks.blocks(ROOT);
        assertThat(blocks).filteredOn(b -> b.attribute("file") != null).hasSizeGreaterThanOrEqualTo(3);
        assertThat(blocks).filteredOn(b -> b.language().equals("console")).hasSizeGreaterThanOrEqualTo(3);
    }

    @TestFactory
    Stream<DynamicTest> fileExcerptsMatchTheFiles() throws IOException {
        return MarkdownBlocks.blocks(ROOT).stream().filter(b -> b.attribute("file") != null)
                .map(block -> DynamicTest.dynamicTest(block.where() + " " + block.attribute("file"), () -> {
                    Path file = ROOT.resolve(block.attribute("file"));
                    assertThat(file).as(block.where() + " names a file that does not exist").isRegularFile();
                    assertThat(Files.readString(file)).as(block.where() + " must be an excerpt of " + file)
                            .contains(block.content());
                }));
    }

    @TestFactory
    Stream<DynamicTest> consoleSessionsPrintWhatTheDocsShow() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (MarkdownBlocks.Block block : MarkdownBlocks.blocks(ROOT)) {
            // A session against a live cluster (cluster=STAGE) runs in the integration test of its page (WhyIT).
            if (!block.language().equals("console") || block.attribute("cluster") != null) continue;
            int exit = block.attribute("exit") == null ? 0 : Integer.parseInt(block.attribute("exit"));
            for (Command command : commands(block)) {
                tests.add(DynamicTest.dynamicTest(block.where() + " " + command.line(), () -> {
                    StringWriter out = new StringWriter();
                    StringWriter err = new StringWriter();
                    int code = RunbookCommand.execute(Clock.fixed(NOW, ZoneOffset.UTC), new PrintWriter(out),
                            new PrintWriter(err), command.args(ROOT));
                    List<String> actual = new ArrayList<>(lines(out.toString()));
                    actual.addAll(lines(err.toString()));
                    assertThat(code).as("exit code of %s\n%s", command.line(), String.join("\n", actual)).isEqualTo(exit);
                    assertThat(matches(command.expected(), actual))
                            .as("%s prints\n%s\nbut the docs show\n%s", command.line(), String.join("\n", actual),
                                    String.join("\n", command.expected()))
                            .isTrue();
                }));
            }
        }
        assertThat(tests).isNotEmpty();
        return tests.stream();
    }

    record Command(String line, List<String> expected) {
        /** The arguments, with paths made absolute against the project root (docs run from there). */
        String[] args(Path root) {
            List<String> words = words(line);
            String[] args = words.subList(1, words.size()).toArray(String[]::new);
            for (int i = 0; i < args.length; i++) {
                if (!args[i].startsWith("-") && Files.exists(root.resolve(args[i]))) {
                    args[i] = root.resolve(args[i]).toString();
                }
            }
            return args;
        }
    }

    /** The words of a command line, as a shell splits it: at spaces, but not inside double quotes (which go). */
    static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        java.util.regex.Matcher word = java.util.regex.Pattern.compile("\"([^\"]*)\"|(\\S+)").matcher(line.trim());
        while (word.find()) words.add(word.group(1) != null ? word.group(1) : word.group(2));
        return words;
    }

    static List<Command> commands(MarkdownBlocks.Block block) {
        List<Command> commands = new ArrayList<>();
        String current = null;
        List<String> expected = new ArrayList<>();
        for (String line : lines(block.content())) {
            if (line.startsWith("$ ")) {
                if (current != null) commands.add(new Command(current, expected));
                if (!line.startsWith("$ ./runbook ")) {
                    throw new IllegalArgumentException(block.where() + ": a console example must run ./runbook: " + line);
                }
                current = line.substring(2);
                expected = new ArrayList<>();
            } else if (current != null) {
                expected.add(line);
            }
        }
        if (current != null) commands.add(new Command(current, expected));
        return commands;
    }

    static List<String> lines(String text) {
        List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
        while (!lines.isEmpty() && lines.get(lines.size() - 1).isBlank()) lines.remove(lines.size() - 1);
        return lines;
    }

    /** Whether {@code actual} matches {@code expected}, where a line "..." matches any run of lines. */
    static boolean matches(List<String> expected, List<String> actual) {
        return matches(expected, actual, String::equals);
    }

    /** As {@link #matches(List, List)}, with lines compared by {@code sameLine} (expected, actual). */
    static boolean matches(List<String> expected, List<String> actual, java.util.function.BiPredicate<String, String> sameLine) {
        return matches(expected, 0, actual, 0, sameLine);
    }

    private static boolean matches(List<String> expected, int e, List<String> actual, int a,
                                   java.util.function.BiPredicate<String, String> sameLine) {
        if (e == expected.size()) return a == actual.size();
        if (expected.get(e).equals("...")) {
            for (int skip = a; skip <= actual.size(); skip++) {
                if (matches(expected, e + 1, actual, skip, sameLine)) return true;
            }
            return false;
        }
        return a < actual.size() && sameLine.test(expected.get(e), actual.get(a)) && matches(expected, e + 1, actual, a + 1, sameLine);
    }
}
