package dev.runbook.runbooks;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.invariant.Invariants;
import dev.runbook.engine.scenario.Scenario;
import dev.runbook.engine.scenario.ScenarioResult;
import dev.runbook.engine.scenario.ScenarioRunner;
import dev.runbook.engine.scenario.ScenarioSuite;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The scenario kit checks postgres-cluster's invariants after every step and names the step that broke one. */
class PostgresInvariantsTest {
    private static final Path BUNDLE = Path.of("postgres-cluster").toAbsolutePath();
    private static final Path TWO_PRIMARIES = Path.of("src/test/resources/invariants/two-primaries.yaml").toAbsolutePath();

    @Test
    void theBundleDeclaresItsInvariants() {
        assertThat(Invariants.load(BUNDLE).names()).containsExactly(
                "A pod that runs as primary besides the current primary is fenced after the cycle",
                "At most one pod is labelled primary",
                "Never delete a running backup",
                "No action while paused",
                "No instance is taken down while fewer than spec.instances minus one are ready",
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

    @Test
    void withoutInvariantsTheSameScenarioPasses() {
        CompiledBundle bundle = BundleCompiler.compile(BundleLoader.load(BUNDLE));
        Scenario scenario = ScenarioSuite.read(BUNDLE, List.of(TWO_PRIMARIES)).get(0);

        assertThat(new ScenarioRunner(Invariants.NONE).run(bundle, scenario).passed()).isTrue();
    }
}
