package dev.runbook.cli.command;

import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.testkit.GreeterBundles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code runbook test --watch} on a copy of the greeter bundle, edited while it watches. */
class ScenarioWatchTest {
    static final Duration RESULT = Duration.ofSeconds(60);

    @TempDir
    Path work;

    final StringWriter output = new StringWriter();
    ScenarioWatch watch;

    @AfterEach
    void stop() {
        if (watch != null) watch.close();
    }

    @Test
    void aSavedRuleRecompilesAndRerunsEveryScenarioAndASavedScenarioRerunsOnlyItself() {
        Path bundle = GreeterBundles.greeter(work, "greeter", "hello");
        watch = new ScenarioWatch(bundle, List.of(), Policy.DEFAULT, new PrintWriter(output, true), new PrintWriter(output, true));
        watch.start();
        assertThat(output.toString()).contains("PASS tests/greet.yaml", "1 passed, 0 failed");

        // A rule that no longer does what the scenario expects: recompiled, rerun, failing.
        GreeterBundles.edit(bundle.resolve("rules/greet.drl"), "\"greeting\", \"hello\"", "\"greeting\", \"salut\"");
        awaitOutput(() -> output.toString().contains("0 passed, 1 failed"));
        assertThat(after("rules/greet.drl")).contains("compiling greeter", "FAIL tests/greet.yaml");

        // The scenario brought in line: only that file runs, on the bundle compiled before.
        GreeterBundles.edit(bundle.resolve("tests/greet.yaml"), "greeting: hello", "greeting: salut");
        awaitOutput(() -> after("tests/greet.yaml changed").contains("1 passed, 0 failed"));
        assertThat(after("tests/greet.yaml changed")).doesNotContain("compiling").contains("PASS tests/greet.yaml");

        // A rule that does not compile: its place, then the watch goes on.
        GreeterBundles.edit(bundle.resolve("rules/greet.drl"), "$app : Primary()", "$app : Primary(nmae == \"x\")");
        awaitOutput(() -> output.toString().contains("waiting for the next save"));
        assertThat(after("rules/greet.drl")).contains("rules/greet.drl:8:");
        GreeterBundles.edit(bundle.resolve("rules/greet.drl"), "$app : Primary(nmae == \"x\")", "$app : Primary()");
        awaitOutput(() -> after("waiting for the next save").contains("1 passed, 0 failed"));
    }

    /** An editor's swap, backup and temporary files, and files that are not the bundle's, run nothing. */
    @Test
    void editorsFilesAndFilesOutsideTheBundleAreNotChanges() throws Exception {
        Path bundle = GreeterBundles.greeter(work, "greeter", "hello");
        watch = new ScenarioWatch(bundle, List.of(), Policy.DEFAULT, new PrintWriter(output, true), new PrintWriter(output, true));
        watch.start();

        for (String name : List.of("rules/4913", "rules/.greet.drl.swp", "rules/.#greet.drl", "rules/greet.drl~", "rules/#greet.drl#",
                "tests/greet.yaml___jb_tmp___", "README.md")) {
            java.nio.file.Files.writeString(bundle.resolve(name), "not the bundle's\n");
        }
        GreeterBundles.edit(bundle.resolve("rules/greet.drl"), "\"greeting\", \"hello\"", "\"greeting\", \"salut\"");

        awaitOutput(() -> output.toString().contains("0 passed, 1 failed"));
        assertThat(output.toString().lines().filter(line -> line.startsWith("--- ")))
                .containsExactly("--- start: compiling greeter and running every scenario",
                        "--- rules/greet.drl: compiling greeter and running every scenario");
    }

    @Test
    void whatABundleIsMadeOfIsItsFilesButNoEditorsFiles() {
        assertThat(List.of("bundle.yaml", "rules/greet.drl", "templates/config.yaml", "tests/greet.yaml", "samples/app.yaml",
                "invariants/one-primary.drl")).allMatch(ScenarioWatch::isBundleFile);
        assertThat(List.of("README.md", "crds/webapps.yaml", "rules", "rules/4913", "rules/.greet.drl.swp", "rules/.greet.drl.swx",
                "rules/.#greet.drl", "rules/greet.drl~", "rules/#greet.drl#", "rules/greet.drl.orig", "rules/greet.drl.kate-swp",
                "tests/greet.yaml___jb_old___", "templates/.goutputstream-ABC123")).noneMatch(ScenarioWatch::isBundleFile);
    }

    /** Waits for the condition; a timeout shows what was printed. */
    private void awaitOutput(java.util.concurrent.Callable<Boolean> condition) {
        try {
            await().atMost(RESULT).until(condition);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("the watch printed:\n" + output, e);
        }
    }

    /** What was printed after the last line holding {@code marker}. */
    private String after(String marker) {
        String text = output.toString();
        int at = text.lastIndexOf(marker);
        return at < 0 ? "" : text.substring(at);
    }
}
