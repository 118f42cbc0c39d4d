package dev.runbook.runbooks;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.testkit.invariant.Invariants;
import dev.runbook.testkit.explore.ExploreSpecParser;
import dev.runbook.testkit.explore.Explorer;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With one guard taken out of a copy of a shipped bundle, runbook explore, with its default budget and
 * user edits drawn from the CRD, finds the class of mistake that guard keeps out, as the invariant named
 * (docs/testing.md#exploring). The shipped bundles, with every guard, explore clean (.ci/run, 500 runs).
 * Seven explorations of 100 runs each, most of which shrink what they find: minutes of CPU, so it runs
 * when asked for, {@code mvn -pl runbooks -am verify -Dtest=ExploreFindsEachClassTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Drunbook.explore.guards=true}, and is reported as skipped
 * otherwise.
 */
@EnabledIfSystemProperty(named = "runbook.explore.guards", matches = "true",
        disabledReason = "minutes of CPU: run with -Drunbook.explore.guards=true (docs/testing.md#exploring)")
class ExploreFindsEachClassTest {

    /** A guard: in FILE of BUNDLE, TEXT replaced by REPLACEMENT (null: the rule that TEXT starts is removed). */
    record Guard(String bundle, String file, String text, String replacement, String invariant) {
        @Override public String toString() { return bundle + " without: " + text.strip().lines().findFirst().orElse(""); }
    }

    static Stream<Guard> guards() {
        return Stream.of(
                new Guard("postgres-cluster", "rules/model.drl",
                        "$pod.isReady() && (nodeState.isEmpty() || nodeState.equals(\"Ready\")), $pod.isReady(), notReady,",
                        "$pod.isReady(), $pod.isReady(), notReady,",
                        "The instance counts in status are the observed ones"),
                new Guard("postgres-cluster", "rules/model.drl",
                        "failureSince($cluster, $clock, ObservedTimes.earliest($primary.getNodeSince(), $primary.getPodNotReadySince()))",
                        "failureSince($cluster, $clock, null)",
                        "The recorded failure time is no later than what the facts show"),
                new Guard("postgres-cluster", "rules/switchover.drl",
                        "rule \"A switchover request waits while a promotion is under way\"", null,
                        "A switchover request is acted on or answered"),
                new Guard("postgres-cluster", "rules/status.drl",
                        "rule \"A paused cluster says so in the Paused condition\"", null,
                        "A paused cluster says so"),
                new Guard("postgres-cluster", "rules/scaling.drl",
                        "rule \"The StatefulSet keeps the primary while spec.instances would remove it\"", null,
                        "The StatefulSet never leaves out the primary or the promotion's target"),
                new Guard("app-release", "rules/model.drl",
                        "            && $deployment.longValue(\"spec.replicas\", 1) == $app.integer(\"spec.replicas\", 1)\n", "",
                        "Available and Ready only when the stable Deployment serves the current version as observed"),
                new Guard("app-release", "rules/status.drl",
                        "rule \"The Release condition says where spec.version stands\"", null,
                        "spec.version is released or answered"),
                new Guard("app-release", "rules/release.drl",
                        "\"image\", $image, \"port\", $port)", "\"image\", $app.str(\"spec.image\", \"\"), \"port\", $port)",
                        "The stable Deployment only runs the image its version was released with"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("guards")
    void exploreFindsTheClassTheGuardKeepsOut(Guard guard, @TempDir Path temp) throws IOException {
        Path copy = copyWithout(temp, guard);
        CompiledBundle compiled = BundleCompiler.compile(BundleLoader.load(copy));
        Explorer.Report report = new Explorer(copy, compiled, Invariants.load(copy), ExploreSpecParser.read(copy)).explore(
                new Explorer.Options(Explorer.DEFAULT_RUNS, Explorer.DEFAULT_STEPS, Explorer.DEFAULT_SEED, temp.resolve("out")), line -> {});
        assertThat(report.found()).as("what explore found without the guard").extracting(f -> f.finding().what())
                .contains(guard.invariant());
    }

    private static Path copyWithout(Path temp, Guard guard) throws IOException {
        Path from = Path.of(guard.bundle()).toAbsolutePath();
        Path copy = temp.resolve(guard.bundle());
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : paths.toList()) {
                Path to = copy.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) Files.createDirectories(to); else Files.copy(path, to);
            }
        }
        Path file = copy.resolve(guard.file());
        String text = Files.readString(file);
        assertThat(text).as("the guard in %s (changed? update this test)", guard.file()).contains(guard.text());
        String changed;
        if (guard.replacement() == null) {
            int start = text.indexOf(guard.text());
            int end = text.indexOf("\nend\n", start) + "\nend\n".length();
            changed = text.substring(0, start) + text.substring(end);
        } else {
            changed = text.replace(guard.text(), guard.replacement());
        }
        Files.writeString(file, changed);
        return copy;
    }
}
