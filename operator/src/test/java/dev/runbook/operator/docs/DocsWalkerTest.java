package dev.runbook.operator.docs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The walker on pages of its own, without a cluster: what a journey's blocks become, that one shell carries
 * what a command leaves to the next, and that a failure names the page and line the reader would look at.
 */
class DocsWalkerTest {
    @TempDir
    Path project;

    private void page(String name, String text) throws Exception {
        Files.createDirectories(project.resolve("docs"));
        Path page = project.resolve(name);
        Files.createDirectories(page.getParent());
        Files.writeString(page, text);
    }

    private void walk(String journey) throws Exception {
        Path work = Files.createDirectories(project.resolve("work"));
        try (ReaderShell shell = new ReaderShell(work, Map.of("PATH", System.getenv("PATH")), project.resolve("outputs"))) {
            new DocsWalker(shell, work).walk(Journey.read(project, journey));
        }
    }

    @Test
    void theBlocksOfAJourneyAreTakenInPageOrderInOneShell() throws Exception {
        page("README.md", """
                # A page

                ```sh walk=hello
                greeting=hello
                echo "$greeting" > greeting.txt
                sleep 300 &
                ```

                ```text walk=hello append=greeting.txt
                world
                ```

                ```sh
                echo not walked > greeting.txt
                ```
                """);
        page("docs/next.md", """
                ```console walk=hello
                $ cat greeting.txt
                hello
                world
                $ echo "$greeting, \\
                again"
                hello, again
                $ jobs | wc -l
                1
                ```

                ```console walk=hello exit=3
                $ exit_with() { return "$1"; }; exit_with 3
                ```
                """);
        Journey journey = Journey.read(project, "hello");
        assertThat(journey.steps()).extracting(Journey.Step::where)
                .containsExactly("README.md:4", "README.md:5", "README.md:6", "README.md:9", "docs/next.md:2", "docs/next.md:5",
                        "docs/next.md:8", "docs/next.md:13");

        walk("hello");
    }

    @Test
    void aCommandThatDoesNotPrintWhatThePageShowsIsNamedWithItsPageAndLine() throws Exception {
        page("README.md", """
                ```sh walk=server
                sleep 300 &
                ```

                Then:

                ```console walk=server
                $ echo Pending
                Ready
                ```
                """);
        assertThatThrownBy(() -> walk("server")).isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("README.md:8: echo Pending\nexited 0 (the page expects 0), and printed:\n    Pending\n"
                        + "but the page shows:\n    Ready\n")
                .hasMessageContaining("still in the background from README.md:2: sleep 300 &");
    }

    @Test
    void aCommandInAWaitBlockIsTypedAgainUntilItPrintsWhatThePageShows() throws Exception {
        page("README.md", """
                ```console walk=later wait=30
                $ if [ -f seen ]; then echo Ready; else touch seen; echo Pending; fi
                Ready
                ```
                """);
        walk("later");
        assertThat(project.resolve("work/seen")).exists();
    }

    @Test
    void aCommandOutsideAWaitBlockIsTypedOnce() throws Exception {
        page("README.md", """
                ```console walk=once
                $ if [ -f seen ]; then echo Ready; else touch seen; echo Pending; fi
                Ready
                ```
                """);
        assertThatThrownBy(() -> walk("once")).hasMessageStartingWith("README.md:2: ").hasMessageContaining("    Pending\n");
    }

    @Test
    void aJourneyNoPageMarksIsAnError() throws Exception {
        page("README.md", "# nothing to walk\n");
        assertThatThrownBy(() -> Journey.read(project, "nowhere")).hasMessage("no block of README.md or docs/ says walk=nowhere");
    }
}
