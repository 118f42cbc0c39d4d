package dev.runbook.operator.isolation;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.decide.Firing;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.engine.policy.Policy;
import dev.runbook.engine.state.ObservationBuilder;
import dev.runbook.engine.state.StateFiles;
import dev.runbook.operator.testkit.ProjectFiles;
import dev.runbook.operator.controller.BundleRefusedException;
import dev.runbook.operator.controller.ReconcileThreads;
import dev.runbook.operator.reload.BundleConfigMaps;
import dev.runbook.operator.testkit.NeedsSandbox;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** A bundle vetted and deciding in a sandboxed worker decides as it would in the operator's process. */
@NeedsSandbox
class IsolatedBundleTest {
    static final Policy POLICY = Policy.DEFAULT;
    static IsolatedBundle postgres;

    @BeforeAll
    static void vetPostgresInAWorker() {
        postgres = load("runbooks/postgres-cluster");
    }

    /** A bundle directory of the project, vetted in a sandboxed worker as a bundle ConfigMap would be. */
    static IsolatedBundle load(String bundle) {
        var directory = ProjectFiles.of(bundle);
        return IsolatedBundle.load(BundleLoader.load(directory), BundleConfigMaps.files(BundleConfigMaps.pack(directory)), POLICY,
                WorkerLauncher.of(POLICY.isolation(), ReconcileThreads.byDefault()), true);
    }

    @AfterAll
    static void stop() {
        if (postgres != null) postgres.close();
    }

    @Test
    void aBundleVettedInAWorkerPassedItsScenariosThere() {
        CompiledBundle here = BundleCompiler.compile(BundleLoader.load(ProjectFiles.of("runbooks/postgres-cluster")));

        assertThat(postgres.isolated()).isTrue();
        assertThat(postgres.scenarios()).isGreaterThan(50);
        assertThat(postgres.ruleNames()).isEqualTo(here.ruleNames());
        assertThat(postgres.version()).isEqualTo(here.version());
    }

    @Test
    void theWorkersPlanIsThePlanOfTheOperatorsOwnProcess() {
        CompiledBundle here = BundleCompiler.compile(BundleLoader.load(ProjectFiles.of("runbooks/postgres-cluster")));
        Observation observation = ObservationBuilder.build(here.spec(),
                StateFiles.read(List.of(ProjectFiles.of("runbooks/postgres-cluster/samples/primary-failed.yaml"))), null,
                Instant.parse("2026-11-30T09:00:00Z"), Map.of());

        Decision isolated = postgres.decide(observation, POLICY);
        Decision inProcess = DecisionCycle.run(here, observation, POLICY);

        assertThat(isolated.actions()).isNotEmpty();
        assertThat(isolated.isValid()).isTrue();
        // Forms compare as maps: the order of a Map.of a rule builds differs from one JVM to the next.
        assertThat(isolated.actions()).map(PlannedAction::form).isEqualTo(inProcess.actions().stream().map(PlannedAction::form).toList());
        assertThat(isolated.actions()).map(PlannedAction::rules).isEqualTo(inProcess.actions().stream().map(PlannedAction::rules).toList());
        assertThat(isolated.firedRules()).isEqualTo(inProcess.firedRules());
        assertThat(isolated.firings()).map(Firing::matched).isEqualTo(inProcess.firings().stream().map(Firing::matched).toList());
    }

    @Test
    void aBundleThatDoesNotCompileInTheWorkerIsRefusedWithFileLineColumn() {
        var refusal = catchThrowableOfType(BundleRefusedException.class, () -> load("engine/src/test/resources/bundles/broken-syntax"));

        assertThat(refusal.getMessage()).endsWith(": refused: the bundle does not compile");
        assertThat(refusal.details()).anySatisfy(d -> assertThat(d).startsWith("rules/failover.drl:8:1: "));
    }
}
