package dev.runbook.cli.docs;

import dev.runbook.operator.docs.ShownOutput;
import dev.runbook.operator.docs.MarkdownBlocks;
import dev.runbook.operator.testkit.ProjectFiles;
import dev.runbook.cli.command.RunbookCommand;
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
 *       sets the expected exit code of every command in the block (default 0); see {@link ShownOutput}. A
 *       block with {@code walk=JOURNEY} is left to {@link JourneysE2E}, which runs it on a cluster.</li>
 * </ul>
 */
class DocumentationExamplesTest {
    static final Instant NOW = Instant.parse("2026-11-30T09:00:00Z");
    private static final Path ROOT = ProjectFiles.root();


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
            // A walked block (walk=JOURNEY) needs a cluster: the journeys run it (JourneysE2E). A session
            // against a live cluster at a stage (cluster=STAGE) runs in the integration test of its page (WhyIT).
            if (!block.language().equals("console") || block.attribute("walk") != null || block.attribute("cluster") != null) continue;
            int exit = block.attribute("exit") == null ? 0 : Integer.parseInt(block.attribute("exit"));
            for (Command command : commands(block)) {
                tests.add(DynamicTest.dynamicTest(block.where() + " " + command.line(), () -> {
                    StringWriter out = new StringWriter();
                    StringWriter err = new StringWriter();
                    int code = RunbookCommand.execute(Clock.fixed(NOW, ZoneOffset.UTC), new PrintWriter(out),
                            new PrintWriter(err), command.args(ROOT));
                    List<String> actual = new ArrayList<>(ShownOutput.lines(out.toString()));
                    actual.addAll(ShownOutput.lines(err.toString()));
                    assertThat(code).as("exit code of %s\n%s", command.line(), String.join("\n", actual)).isEqualTo(exit);
                    assertThat(ShownOutput.matches(command.expected(), actual))
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
        for (String line : ShownOutput.lines(block.content())) {
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
}
