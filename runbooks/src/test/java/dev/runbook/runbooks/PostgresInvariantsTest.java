package dev.runbook.runbooks;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.testkit.invariant.Invariants;
import dev.runbook.testkit.scenario.Scenario;
import dev.runbook.testkit.scenario.ScenarioResult;
import dev.runbook.testkit.scenario.ScenarioRunner;
import dev.runbook.testkit.scenario.ScenarioSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.util.stream.Stream;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The scenario kit checks postgres-cluster's invariants after every step and names the step that broke one. */
class PostgresInvariantsTest {
    private static final Path BUNDLE = Path.of("postgres-cluster").toAbsolutePath();
    private static final Path TWO_PRIMARIES = Path.of("src/test/resources/invariants/two-primaries.yaml").toAbsolutePath();
    private static final Path SHRUNK = Path.of("src/test/resources/invariants/shrunk-for-restore.yaml").toAbsolutePath();
    /** What says a cluster already runs: its StatefulSet's replicas, and its pods of ordinal 1 and up. */
    private static final String RESTORE_GUARD =
            "    not Resource(kind == \"StatefulSet\", name == $cluster.name, integer(\"spec.replicas\", 0) > 1)\n"
            + "    not Member(ordinal > 0)\n";

    @Test
    void theBundleDeclaresItsInvariants() {
        assertThat(Invariants.load(BUNDLE).names()).hasSize(26).contains(
                "Healthy and Ready only when every fact behind them was observed",
                "A failover starts once failoverDelay has passed since the failure began",
                "A switchover request is acted on or answered",
                "The StatefulSet never leaves out the primary or the promotion's target").contains(
                "A pod that runs as primary besides the current primary is fenced after the cycle",
                "At most one pod is labelled primary",
                "Never delete a running backup",
                "No action while paused",
                "No instance is taken down while fewer than spec.instances minus one are ready",
                "The StatefulSet is never given fewer instances than it has, below spec.instances",
                "The read-write Service never selects two pods");
    }

    @Test
    void aViolationIsReportedWithTheStepWhereItHappened() {
        CompiledBundle bundle = BundleCompiler.compile(BundleLoader.load(BUNDLE));
        Scenario scenario = ScenarioSuite.read(BUNDLE, List.of(TWO_PRIMARIES)).get(0);

        ScenarioResult result = new ScenarioRunner(Invariants.load(BUNDLE)).run(bundle, scenario);

        assertThat(result.passed()).isFalse();
        assertThat(result.failures()).anySatisfy(f -> assertThat(f)
                .startsWith("step 2 (someone labels pg-1 primary): ")
                .contains("two-primaries.yaml:12: invariant violated: At most one pod is labelled primary: "
                        + "pg-0 and pg-1 are all labelled primary"));
        assertThat(result.failures()).anySatisfy(f -> assertThat(f)
                .contains("invariant violated: The read-write Service never selects two pods: the Service pg-rw selects pg-0 and pg-1"));
        assertThat(result.failures()).noneSatisfy(f -> assertThat(f).startsWith("step 1"));
    }

    /** The restore runbook's guards taken out, a running StatefulSet would be shrunk to one instance: the invariant says so. */
    @Test
    void aStatefulSetShrunkForARestoreIsAViolation(@TempDir Path copy) throws IOException {
        Path bundleCopy = copy.resolve("postgres-cluster");
        try (Stream<Path> files = Files.walk(BUNDLE)) {
            for (Path file : files.toList()) {
                Path target = bundleCopy.resolve(BUNDLE.relativize(file).toString());
                if (Files.isDirectory(file)) Files.createDirectories(target);
                else Files.copy(file, target);
            }
        }
        Path restore = bundleCopy.resolve("rules/restore.drl");
        String rules = Files.readString(restore);
        assertThat(rules).contains(RESTORE_GUARD);
        Files.writeString(restore, rules.replace(RESTORE_GUARD, ""));

        CompiledBundle bundle = BundleCompiler.compile(BundleLoader.load(bundleCopy));
        Scenario scenario = ScenarioSuite.read(bundleCopy, List.of(SHRUNK)).get(0);
        ScenarioResult result = new ScenarioRunner(Invariants.load(bundleCopy)).run(bundle, scenario);

        assertThat(result.failures()).anySatisfy(f -> assertThat(f)
                .startsWith("step 2 (spec.bootstrap.recovery is added): ")
                .contains("invariant violated: The StatefulSet is never given fewer instances than it has, below spec.instances:"
                        + " the StatefulSet pg was given 1 instances, it had 3 and spec.instances is 3"));
        CompiledBundle guarded = BundleCompiler.compile(BundleLoader.load(BUNDLE));
        assertThat(new ScenarioRunner(Invariants.load(BUNDLE)).run(guarded, ScenarioSuite.read(BUNDLE, List.of(SHRUNK)).get(0)).passed())
                .as("with the guard, the same scenario keeps the StatefulSet").isTrue();
    }

    @Test
    void withoutInvariantsTheSameScenarioPasses() {
        CompiledBundle bundle = BundleCompiler.compile(BundleLoader.load(BUNDLE));
        Scenario scenario = ScenarioSuite.read(BUNDLE, List.of(TWO_PRIMARIES)).get(0);

        assertThat(new ScenarioRunner(Invariants.NONE).run(bundle, scenario).passed()).isTrue();
    }
}
