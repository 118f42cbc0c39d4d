package dev.runbook.cli.docs;

import dev.runbook.operator.docs.MarkdownBlocks;
import dev.runbook.operator.docs.ShownOutput;
import dev.runbook.cli.command.RunbookCommand;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code console cluster=STAGE} sessions of a page, run by its integration test when its cluster is
 * at that stage: each {@code $ ./runbook ...} line runs in this JVM and must print what the page shows
 * below it (stdout, then stderr), as {@link DocumentationExamplesTest} checks the other sessions; a line
 * {@code ...} stands for any lines, and {@code …} inside a line for any text (a time, a count of seconds).
 * What names the test's own cluster is substituted first, in the command and in what it must print (the
 * page's namespace by the test's, the operator's URL by the test's port), and {@code extraArgs} are added
 * (the kubeconfig of the test's API server).
 */
final class ClusterExamples {
    private final Path root;
    private final Path page;
    private final Map<String, String> substitutions = new LinkedHashMap<>();
    private final List<String> extraArgs;

    ClusterExamples(Path root, String page, List<String> extraArgs) {
        this.root = root;
        this.page = root.resolve(page);
        this.extraArgs = List.copyOf(extraArgs);
    }

    /** Replaces {@code written} by {@code actual} in the commands and in what they print. */
    ClusterExamples substitute(String written, String actual) {
        substitutions.put(written, actual);
        return this;
    }

    /**
     * Runs the sessions of {@code stage}, in the page's order; returns what each command printed.
     *
     * @throws AssertionError when one printed something else, or the page has no session of that stage
     */
    List<String> run(String stage, Clock clock) throws IOException {
        List<String> outputs = new ArrayList<>();
        for (MarkdownBlocks.Block block : MarkdownBlocks.blocks(root)) {
            if (!root.resolve(block.page()).equals(page) || !stage.equals(block.attribute("cluster"))) continue;
            int exit = block.attribute("exit") == null ? 0 : Integer.parseInt(block.attribute("exit"));
            for (DocumentationExamplesTest.Command written : DocumentationExamplesTest.commands(block)) {
                DocumentationExamplesTest.Command command = new DocumentationExamplesTest.Command(substituted(written.line()),
                        written.expected().stream().map(this::substituted).toList());
                List<String> args = new ArrayList<>(Arrays.asList(command.args(root)));
                args.addAll(extraArgs);
                StringWriter out = new StringWriter();
                StringWriter err = new StringWriter();
                int code = RunbookCommand.execute(clock, new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
                List<String> actual = new ArrayList<>(ShownOutput.lines(out.toString()));
                actual.addAll(ShownOutput.lines(err.toString()));
                String printed = String.join("\n", actual);
                assertThat(code).as("exit code of %s (%s)\n%s", command.line(), block.where(), printed).isEqualTo(exit);
                assertThat(ShownOutput.matches(command.expected(), actual))
                        .as("%s (%s) prints\n%s\nbut the page shows\n%s", command.line(), block.where(), printed,
                                String.join("\n", command.expected()))
                        .isTrue();
                outputs.add(printed);
            }
        }
        assertThat(outputs).as("%s has sessions for cluster=%s", page, stage).isNotEmpty();
        return outputs;
    }

    private String substituted(String text) {
        String result = text;
        for (Map.Entry<String, String> s : substitutions.entrySet()) result = result.replace(s.getKey(), s.getValue());
        return result;
    }

    static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("runbook"))) dir = dir.getParent();
        if (dir == null) throw new IllegalStateException("run from inside the project checkout");
        return dir;
    }
}
