package dev.runbook.operator.reload;

import dev.runbook.operator.testkit.ProjectFiles;
import dev.runbook.operator.controller.BundleRefusedException;
import dev.runbook.operator.testkit.NeedsSandbox;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class BundleVettingTest {
    final BundleVetting vetting = new BundleVetting();

    @TempDir
    Path work;

    @Test
    void aBundleWhoseScenariosPassIsCompiledUnderItsOrigin() {
        var vetted = vetting.vet("configmap/ops/pg", ProjectFiles.of("runbooks/postgres-cluster"));

        assertThat(vetted.bundle().name()).isEqualTo("postgres-cluster");
        assertThat(vetted.bundle().source().origin()).isEqualTo("configmap/ops/pg");
        assertThat(vetted.scenarios()).isGreaterThan(50);
    }

    /**
     * The shipped bundle, unchanged, is accepted by an operator installed from deploy/: its scenarios'
     * primaries live in demo, which stands for databases, the namespace deploy/'s policy grants it.
     */
    @Test
    @NeedsSandbox
    void theShippedBundleIsAcceptedUnderThePolicyDeployInstalls() {
        // deploy/'s policy sends ConfigMap bundles to the pod's worker container; here a sandboxed worker stands in for it.
        var policy = dev.runbook.engine.policy.PolicyParser.read(ProjectFiles.of("deploy/15-policy.yaml")).reserving("runbook-system")
                .withIsolation(dev.runbook.engine.policy.Isolation.DEFAULT);

        var vetted = new BundleVetting(policy).vetData("configmap/runbook-system/runbook-bundle-postgres-cluster",
                BundleConfigMaps.pack(ProjectFiles.of("runbooks/postgres-cluster")));

        assertThat(vetted.scenarios()).isGreaterThan(50);
    }

    @Test
    void aBundleThatDoesNotCompileIsRefusedWithFileLineColumn() {
        var refusal = catchThrowableOfType(BundleRefusedException.class,
                () -> vetting.vet("configmap/ops/x", ProjectFiles.of("engine/src/test/resources/bundles/broken-syntax")));

        assertThat(refusal.getMessage()).isEqualTo("configmap/ops/x: refused: the bundle does not compile");
        assertThat(refusal.details()).anySatisfy(d -> assertThat(d).startsWith("rules/failover.drl:8:1: "));
        List<String> report = refusal.report("no bundle runs from this ConfigMap").lines().toList();
        assertThat(report.get(0)).startsWith("rules/failover.drl:8:1: ");
        assertThat(report.get(1)).isEqualTo("no bundle runs from this ConfigMap");
    }

    /** The refusal's first line, which the event and the webhook's denial start with, is the parse error, not a knock-on. */
    @Test
    void aRefusalStartsWithTheParseErrorNotItsKnockOns() {
        var refusal = catchThrowableOfType(BundleRefusedException.class,
                () -> vetting.vet("configmap/ops/x", ProjectFiles.of("engine/src/test/resources/bundles/broken-with-knock-ons")));

        assertThat(refusal.headline()).startsWith("rules/new.drl:11:").contains("mismatched input 'then'");
        // Nothing is built on a file that did not parse, so no knock-on error follows it.
        assertThat(refusal.details()).hasSize(1);
    }

    @Test
    void aBundleWhoseRuleNeverEndsIsRefusedAndTheNextBundleIsVetted() {
        var refusal = catchThrowableOfType(BundleRefusedException.class, () -> vetting.vet("configmap/ops/loop",
                ProjectFiles.of("engine/src/test/resources/bundles/contained/loop-in-consequence")));

        assertThat(refusal.getMessage()).startsWith("configmap/ops/loop: refused: rule 'Loop forever' exceeded its deadline")
                .contains("limits.cycleDeadline");
        // The same vetting (one reload thread) goes on to the next bundle.
        assertThat(vetting.vet("configmap/ops/pg", ProjectFiles.of("runbooks/postgres-cluster")).scenarios()).isGreaterThan(50);
    }

    /** A StackOverflowError in a scenario is a refusal naming the rule, not the end of the reload thread. */
    @Test
    void aBundleWhoseRuleRecursesWithoutEndIsRefusedAndTheNextBundleIsVetted() {
        var refusal = catchThrowableOfType(BundleRefusedException.class, () -> vetting.vet("configmap/ops/recurse",
                ProjectFiles.of("engine/src/test/resources/bundles/contained/deep-recursion")));

        assertThat(refusal.getMessage()).startsWith("configmap/ops/recurse: refused: rule 'Recurse without end' overflowed the stack");
        assertThat(vetting.vet("configmap/ops/pg", ProjectFiles.of("runbooks/postgres-cluster")).scenarios()).isGreaterThan(50);
    }

    @Test
    void aBundleThatCallsOutsideTheAllowListIsRefusedWithFileLineColumn() {
        var refusal = catchThrowableOfType(BundleRefusedException.class, () -> vetting.vet("configmap/ops/exec",
                ProjectFiles.of("engine/src/test/resources/bundles/contained/exec-in-consequence")));

        assertThat(refusal.getMessage()).isEqualTo("configmap/ops/exec: refused: the bundle does not compile");
        assertThat(refusal.details()).anySatisfy(d -> assertThat(d).startsWith("rules/attack.drl:9:13: java.lang.Runtime.getRuntime"));
    }

    @Test
    void aFailingScenarioIsNamed() throws IOException {
        Path bundle = copyOf(ProjectFiles.of("engine/src/test/resources/bundles/example"));
        try (var failing = Files.list(bundle.resolve("failing-tests"))) {
            for (Path file : failing.toList()) Files.copy(file, bundle.resolve("tests").resolve(file.getFileName()));
        }

        var refusal = catchThrowableOfType(BundleRefusedException.class, () -> vetting.vet("configmap/ops/ex", bundle));

        assertThat(refusal.getMessage()).matches("configmap/ops/ex: refused: 10 of 14 scenarios failed");
        assertThat(refusal.details()).hasSize(10).allSatisfy(d -> assertThat(d).startsWith("FAIL tests/wrong.yaml: "));
        // The report starts with which scenarios failed and how the first one differed, then what runs.
        List<String> report = refusal.report("the previous version keeps running: bundle example@1").lines().toList();
        assertThat(report.get(0)).startsWith("scenarios failed: tests/wrong.yaml: expects a rule that does not fire, ")
                .contains("(+7 more): tests/wrong.yaml:6: expected rule 'Ready when every wanted member is ready' to fire, but it did not");
        assertThat(report.get(1)).isEqualTo("the previous version keeps running: bundle example@1");
    }

    @Test
    void aBundleWithoutScenariosIsRefused() throws IOException {
        Path bundle = copyOf(ProjectFiles.of("engine/src/test/resources/bundles/example"));
        try (var tests = Files.list(bundle.resolve("tests"))) {
            for (Path file : tests.toList()) Files.delete(file);
        }
        Files.delete(bundle.resolve("tests"));

        var refusal = catchThrowableOfType(BundleRefusedException.class, () -> vetting.vet("configmap/ops/ex", bundle));

        assertThat(refusal.getMessage()).contains("has no scenarios (tests/*.yaml)");
    }

    private Path copyOf(Path bundle) throws IOException {
        Path target = work.resolve("bundle");
        try (var files = Files.walk(bundle)) {
            for (Path file : files.toList()) {
                Path to = target.resolve(bundle.relativize(file).toString());
                if (Files.isDirectory(file)) Files.createDirectories(to); else Files.copy(file, to);
            }
        }
        return target;
    }
}
