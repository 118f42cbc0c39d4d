package dev.runbook.runbooks;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.testkit.invariant.Invariants;
import dev.runbook.testkit.scenario.Scenario;
import dev.runbook.testkit.scenario.ScenarioResult;
import dev.runbook.testkit.scenario.ScenarioRunner;
import dev.runbook.testkit.scenario.ScenarioSuite;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/** app-release's invariants hold on its scenarios and catch runbooks that break them. */
class AppReleaseInvariantsTest {
    private static final Path BUNDLE = Path.of("app-release").toAbsolutePath();
    private static final Invariants INVARIANTS = Invariants.load(BUNDLE);

    /** The bundle with one rule file edited. */
    private static CompiledBundle edited(String file, UnaryOperator<String> edit) {
        Map<String, String> files = new TreeMap<>(BundleLoader.load(BUNDLE).files());
        String before = files.get(file);
        String after = edit.apply(before);
        assertThat(after).as("the edit of " + file).isNotEqualTo(before);
        files.put(file, after);
        return BundleCompiler.compile(new BundleSource("edited", files));
    }

    /** The failures of the named scenario (the file's first when {@code name} is null). */
    private static List<String> failures(CompiledBundle bundle, String scenarioFile, String name) {
        Scenario scenario = ScenarioSuite.read(BUNDLE, List.of(BUNDLE.resolve(scenarioFile))).stream()
                .filter(s -> name == null || s.name().equals(name)).findFirst().orElseThrow();
        ScenarioResult result = new ScenarioRunner(INVARIANTS).run(bundle, scenario);
        return result.failures();
    }

    @Test
    void theBundleDeclaresItsInvariants() {
        assertThat(INVARIANTS.names()).containsExactlyInAnyOrder(
                "A canary only runs a version whose migration succeeded",
                "The stable Deployment only moves to the current version",
                "Never delete the stable Deployment",
                "No action while paused",
                "Nothing new starts while the release is being deleted",
                "A failed version is never current",
                "The stable Deployment only runs the image its version was released with",
                "Available and Ready only when the stable Deployment serves the current version as observed",
                "spec.replicas is applied to the stable Deployment",
                "spec.config is applied to the ConfigMap",
                "spec.version is released or answered",
                "spec.image and spec.port are released or answered",
                "A changed answer comes with an event");
    }

    @Test
    void aCanaryStartedBeforeItsMigrationIsCaught() {
        CompiledBundle hasty = edited("rules/release.drl", drl -> drl.replace(
                "    Migration(state in (\"NotNeeded\", \"Succeeded\"))\n    not Canary()", "    not Canary()"));

        assertThat(String.join("\n", failures(hasty, "tests/canary.yaml", null)))
                .contains("invariant violated: A canary only runs a version whose migration succeeded: the canary runs version 1.1.0");
    }

    @Test
    void aStableDeploymentRolledToTheTargetBeforePromotionIsCaught() {
        CompiledBundle eager = edited("rules/release.drl", drl -> drl.replace(
                "\"version\", $current, \"replicas\", $app.integer(\"spec.replicas\", 1),",
                "\"version\", $app.str(\"spec.version\", \"\"), \"replicas\", $app.integer(\"spec.replicas\", 1),"));

        assertThat(String.join("\n", failures(eager, "tests/canary.yaml", null)))
                .contains("invariant violated: The stable Deployment only moves to the current version: "
                        + "the stable Deployment moved to version 1.1.0 while status.currentVersion is '1.0.0'");
    }

    @Test
    void startingAMigrationDuringDeletionIsCaught() {
        CompiledBundle careless = edited("rules/release.drl", drl -> drl.replace("""
                rule "Run the migration of a new version"
                when
                    Primary(!deleting)""", """
                rule "Run the migration of a new version"
                when
                    Primary()"""));

        assertThat(String.join("\n", failures(careless, "tests/cleanup.yaml", "a deleted release starts no migration, canary or promotion")))
                .contains("invariant violated: Nothing new starts while the release is being deleted");
    }
}
