package dev.runbook.runbooks;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.testkit.explore.ExploreSpecParser;
import dev.runbook.testkit.explore.Explorer;
import dev.runbook.testkit.explore.Finding;
import dev.runbook.testkit.invariant.Invariants;
import dev.runbook.testkit.scenario.ScenarioResult;
import dev.runbook.testkit.scenario.ScenarioRunner;
import dev.runbook.testkit.scenario.ScenarioSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * runbook explore on postgres-cluster: the same seed explores the same runs, and with a safety rule
 * taken out of a copy of the bundle the default budget finds the failure and shrinks it to a scenario
 * that the scenario kit replays as failing.
 */
class PostgresExploreTest {
    private static final Path BUNDLE = Path.of("postgres-cluster").toAbsolutePath();

    @Test
    void theSameSeedExploresTheSameRunsAndWritesTheSameScenarios(@TempDir Path temp) throws IOException {
        Path out = temp.resolve("out");
        List<String> first = explore(BUNDLE, new Explorer.Options(8, 10, 7, out));
        Map<String, String> firstFiles = files(out);
        deleteTree(out);
        List<String> second = explore(BUNDLE, new Explorer.Options(8, 10, 7, out));

        assertThat(second).isEqualTo(first);
        assertThat(files(out)).isEqualTo(firstFiles);
        assertThat(first.get(first.size() - 1)).startsWith("explore: 8 runs, 10 steps, ");
    }

    @Test
    void findsTheMissingFencingRuleWithinTheDefaultBudget(@TempDir Path temp) throws IOException {
        Path copy = copyWithout(temp, "rules/failover.drl", "rule \"Fence the old primary out of the read-write service\"");

        Explorer.Report report = exploreWithDefaults(copy, temp.resolve("out"));

        // Without fencing the old primary keeps its primary label, so a promotion never completes.
        Explorer.Found found = report.found().stream()
                .filter(f -> f.finding().kind() == Finding.Kind.NOT_CONVERGED).findFirst().orElseThrow(() ->
                        new AssertionError("no convergence failure found: " + report.found()));
        assertReplaysFailing(copy, found, "expected the status to contain\n    {phase: Healthy}");
    }

    @Test
    void findsAReplicaRunningAsPrimaryUnfencedWhenTheSplitBrainFencingIsMissing(@TempDir Path temp) throws IOException {
        Path copy = copyWithout(temp, "rules/failover.drl", "rule \"Fence every extra primary at once\"");

        Explorer.Report report = exploreWithDefaults(copy, temp.resolve("out"));

        String invariant = "A pod that runs as primary besides the current primary is fenced after the cycle";
        Explorer.Found found = report.found().stream()
                .filter(f -> f.finding().what().equals(invariant)).findFirst().orElseThrow(() ->
                        new AssertionError("no unfenced second primary found: " + report.found()));
        assertReplaysFailing(copy, found, "invariant violated: " + invariant);
    }

    @Test
    void findsAnActingRuleMarkedWhilePausedWithinTheDefaultBudget(@TempDir Path temp) throws IOException {
        Path copy = copyWithout(temp, "rules/bootstrap.drl", null);

        Explorer.Report report = exploreWithDefaults(copy, temp.resolve("out"));

        Explorer.Found found = report.found().stream()
                .filter(f -> f.finding().what().equals("No action while paused")).findFirst().orElseThrow(() ->
                        new AssertionError("no pause violation found: " + report.found()));
        assertReplaysFailing(copy, found, "invariant violated: No action while paused");
    }

    private static void assertReplaysFailing(Path bundle, Explorer.Found found, String failure) {
        assertThat(found.replaysFailing()).isTrue();
        assertThat(found.shrunkSteps()).isLessThanOrEqualTo(found.steps());
        CompiledBundle compiled = BundleCompiler.compile(BundleLoader.load(bundle));
        ScenarioResult replay = new ScenarioRunner(Invariants.load(bundle))
                .run(compiled, ScenarioSuite.read(bundle, List.of(found.scenario())).get(0));
        assertThat(replay.passed()).isFalse();
        assertThat(String.join("\n", replay.failures())).contains(failure);
    }

    private static Explorer.Report exploreWithDefaults(Path bundle, Path out) {
        CompiledBundle compiled = BundleCompiler.compile(BundleLoader.load(bundle));
        return new Explorer(bundle, compiled, Invariants.load(bundle), ExploreSpecParser.read(bundle)).explore(
                new Explorer.Options(Explorer.DEFAULT_RUNS, Explorer.DEFAULT_STEPS, Explorer.DEFAULT_SEED, out), line -> {});
    }

    private static List<String> explore(Path bundle, Explorer.Options options) {
        CompiledBundle compiled = BundleCompiler.compile(BundleLoader.load(bundle));
        List<String> lines = new ArrayList<>();
        Explorer.Report report = new Explorer(bundle, compiled, Invariants.load(bundle), ExploreSpecParser.read(bundle))
                .explore(options, lines::add);
        lines.add("explore: " + report.runs() + " runs, " + report.steps() + " steps, " + report.violations() + " invariant violations");
        return lines;
    }

    /**
     * A copy of postgres-cluster with one rule removed from a rule file, or (rule null) with
     * "A new instance without a role joins as a replica" marked {@code @whilePaused}: it then acts on a paused
     * cluster, as it did when a hand-written pause guard was forgotten.
     */
    private static Path copyWithout(Path temp, String file, String rule) throws IOException {
        Path copy = temp.resolve("postgres-cluster");
        try (Stream<Path> paths = Files.walk(BUNDLE)) {
            for (Path from : paths.toList()) {
                Path to = copy.resolve(BUNDLE.relativize(from).toString());
                if (Files.isDirectory(from)) Files.createDirectories(to); else Files.copy(from, to);
            }
        }
        Path drl = copy.resolve(file);
        String text = Files.readString(drl);
        String changed;
        if (rule != null) {
            int start = text.indexOf(rule);
            assertThat(start).as(rule + " in " + file + " (renamed? update this test)").isGreaterThanOrEqualTo(0);
            int end = text.indexOf("\nend\n", start) + "\nend\n".length();
            changed = text.substring(0, start) + text.substring(end);
        } else {
            String acting = "rule \"A new instance without a role joins as a replica\"\nwhen\n";
            assertThat(text).as("the acting rule in " + file + " (changed? update this test)").contains(acting);
            changed = text.replace(acting, acting.replace("\nwhen\n", "\n@whilePaused\nwhen\n"));
        }
        assertThat(changed).isNotEqualTo(text);
        Files.writeString(drl, changed);
        return copy;
    }

    private static Map<String, String> files(Path dir) throws IOException {
        Map<String, String> files = new TreeMap<>();
        if (!Files.isDirectory(dir)) return files;
        try (Stream<Path> paths = Files.list(dir)) {
            for (Path file : paths.toList()) files.put(file.getFileName().toString(), Files.readString(file));
        }
        return files;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) return; // no run failed, so nothing was written
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
