package dev.runbook.cli.docs;

import dev.runbook.operator.docs.MarkdownBlocks;
import dev.runbook.operator.docs.ShownOutput;
import dev.runbook.operator.testkit.ProjectFiles;
import dev.runbook.cli.command.RunbookCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the {@code terminal} blocks of docs/tutorial.md in order, in one fresh directory, as a
 * newcomer would: each {@code $ ./runbook ...} line must exit 0 and print the lines below it, where a
 * line {@code ...} stands for any number of lines and {@code ...} inside a line for any text.
 * ({@code console} blocks elsewhere run from the project root; these write a new bundle, so they get
 * a directory of their own.)
 */
class TutorialTest {
    private static final Path PAGE = Path.of("docs/tutorial.md");


    @Test
    void everyRunbookCommandOfTheTutorialPrintsWhatThePageShows(@TempDir Path work) throws Exception {
        List<MarkdownBlocks.Block> blocks = MarkdownBlocks.blocks(ProjectFiles.root()).stream()
                .filter(b -> b.page().equals(PAGE) && b.language().equals("terminal")).toList();
        int commands = 0;
        for (MarkdownBlocks.Block block : blocks) {
            String command = null;
            List<String> expected = new ArrayList<>();
            for (String line : (block.content() + "$ end").split("\n")) {
                if (!line.startsWith("$ ")) {
                    expected.add(line);
                    continue;
                }
                if (command != null) {
                    run(work, block.where(), command, expected);
                    commands++;
                }
                command = line.substring(2);
                expected = new ArrayList<>();
            }
        }
        assertThat(commands).as("runbook commands run from the tutorial").isGreaterThanOrEqualTo(5);
        assertThat(work.resolve("demo/bundle.yaml")).isRegularFile();
    }

    private static void run(Path work, String where, String command, List<String> expected) {
        assertThat(command).as(where + ": a terminal block runs ./runbook").startsWith("./runbook ");
        List<String> args = new ArrayList<>(Arrays.asList(command.split("\\s+")).subList(1, command.split("\\s+").length));
        for (int i = 0; i < args.size(); i++) {
            if (!args.get(i).startsWith("-") && Files.exists(work.resolve(args.get(i)))) args.set(i, work.resolve(args.get(i)).toString());
        }
        if (args.get(0).equals("new")) args.addAll(List.of("--dir", work.toString()));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = RunbookCommand.execute(Clock.fixed(Instant.parse("2026-11-30T09:00:00Z"), ZoneOffset.UTC),
                new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
        List<String> actual = new ArrayList<>(out.toString().lines().toList());
        actual.addAll(err.toString().lines().toList());
        assertThat(code).as("%s: %s exits 0\n%s", where, command, String.join("\n", actual)).isZero();
        assertThat(ShownOutput.matches(expected, actual)).as("%s: %s prints\n%s\nbut the page shows\n%s", where, command,
                String.join("\n", actual), String.join("\n", expected)).isTrue();
    }
}
