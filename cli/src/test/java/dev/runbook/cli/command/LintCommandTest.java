package dev.runbook.cli.command;

import dev.runbook.operator.testkit.ProjectFiles;
import dev.runbook.operator.testkit.GreeterBundles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class LintCommandTest {

    @Test
    void aGoodBundlePasses() {
        CommandResult result = CommandResult.run("lint", ProjectFiles.of("runbooks/postgres-cluster").toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        long invariants = InvariantFiles.rules(ProjectFiles.of("runbooks/postgres-cluster"));
        assertThat(result.out()).contains("bundle postgres-cluster", "rules", ": OK", "invariants: " + invariants + " rules: OK");
        // Every spec field its rules read is in its CRD's schema.
        assertThat(result.err()).doesNotContain("is not in the schema");
        // No rule guards itself against a pause the engine enforces, and no salience is a bare number.
        assertThat(result.err()).doesNotContain("not Paused() is redundant", "is a bare number");
    }

    /** One missing parenthesis in a new file of the shipped bundle: one line, the cause (it was 377, the cause on line 223). */
    @Test
    void aParseErrorInANewFileIsPrintedAloneWithoutItsKnockOns(@TempDir Path work) throws IOException {
        Path bundle = work.resolve("postgres-cluster");
        Path shipped = ProjectFiles.of("runbooks/postgres-cluster");
        try (var files = Files.walk(shipped)) {
            for (Path file : files.toList()) {
                Path to = bundle.resolve(shipped.relativize(file).toString());
                if (Files.isDirectory(file)) Files.createDirectories(to); else Files.copy(file, to);
            }
        }
        Path broken = ProjectFiles.of("engine/src/test/resources/bundles/broken-with-knock-ons/rules/new.drl");
        Files.writeString(bundle.resolve("rules/new.drl"), Files.readString(broken).replace("package knockons", "package postgres"));

        CommandResult result = CommandResult.run("lint", bundle.toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err().lines().toList()).satisfiesExactly(
                only -> assertThat(only).startsWith("rules/new.drl:11:1: mismatched input 'then'"));
    }

    @Test
    void withAPolicyItShowsWhatThePolicyGrantsTheBundleAndTheLimitsItsRulesRunUnder() {
        String policy = ProjectFiles.of("operator/src/test/resources/policy/limits.yaml").toString();
        CommandResult result = CommandResult.run("lint", ProjectFiles.of("runbooks/postgres-cluster").toString(), "--policy", policy);

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).contains(
                "policy " + policy + " for bundle postgres-cluster: namespaces [databases]; kinds [ConfigMap, Job.batch, Pod, "
                        + "PostgresCluster.postgres.runbook.dev, Role.rbac.authorization.k8s.io, RoleBinding.rbac.authorization.k8s.io, "
                        + "Service, ServiceAccount, StatefulSet.apps]; cluster-scoped none",
                "  limits.cycleDeadline: 2s\n", "  limits.scenarioDeadline: 20s\n", "  limits.vettingDeadline: 3m\n",
                "  limits.cycleMemoryMiB: 128\n");
        // Without --policy, lint says nothing about one.
        assertThat(CommandResult.run("lint", ProjectFiles.of("runbooks/postgres-cluster").toString()).out()).doesNotContain("limits.");
    }

    @Test
    void aRuleReadingASpecFieldTheCrdDoesNotDeclareIsWarnedAbout(@TempDir Path work) throws IOException {
        Path bundle = GreeterBundles.greeter(work, "greeter", "hello");
        Files.writeString(bundle.resolve("crds/webapps.yaml"), """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: webapps.test.runbook.dev}
                spec:
                  group: test.runbook.dev
                  names: {kind: WebApp, plural: webapps}
                  scope: Namespaced
                  versions:
                    - name: v1
                      served: true
                      storage: true
                      schema:
                        openAPIV3Schema:
                          type: object
                          properties:
                            spec:
                              type: object
                              properties:
                                greeting: {type: string}
                """);

        CommandResult result = CommandResult.run("lint", bundle.toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.err()).startsWith("warning: rules/greet.drl:11:53: spec.counter is not in the schema of WebApp's CRD: "
                + "a real API server drops undeclared fields");
        assertThat(result.out()).contains(": OK");
    }

    @Test
    void aBrokenInvariantIsPrintedAtItsPlace(@org.junit.jupiter.api.io.TempDir java.nio.file.Path bundle) throws Exception {
        java.nio.file.Path example = ProjectFiles.of("engine/src/test/resources/bundles/example");
        java.nio.file.Files.writeString(bundle.resolve("bundle.yaml"), java.nio.file.Files.readString(example.resolve("bundle.yaml")));
        for (String dir : java.util.List.of("rules", "templates")) {
            java.nio.file.Files.createDirectories(bundle.resolve(dir));
            try (var files = java.nio.file.Files.list(example.resolve(dir))) {
                for (java.nio.file.Path f : files.toList()) java.nio.file.Files.copy(f, bundle.resolve(dir).resolve(f.getFileName()));
            }
        }
        java.nio.file.Files.createDirectories(bundle.resolve("invariants"));
        java.nio.file.Files.writeString(bundle.resolve("invariants/broken.drl"), "package x\nrule \"broken\"\nwhen\n    Primary(\nthen\nend\n");

        CommandResult result = CommandResult.run("lint", bundle.toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).startsWith("invariants/broken.drl:");
    }

    @Test
    void aSyntaxErrorIsPrintedAsFileLineColumnAndExitsTwo() {
        CommandResult result = CommandResult.run("lint", ProjectFiles.of("engine/src/test/resources/bundles/broken-syntax").toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.out()).isEmpty();
        assertThat(result.err()).startsWith("rules/failover.drl:8:1: mismatched input 'then'");
    }

    @Test
    void aTypeErrorPointsAtTheUnknownField() {
        CommandResult result = CommandResult.run("lint", ProjectFiles.of("engine/src/test/resources/bundles/broken-type").toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).startsWith("rules/status.drl:9:36: ").contains("readyness");
    }

    @Test
    void aDirectoryWithoutBundleYamlIsNamed() {
        CommandResult result = CommandResult.run("lint", ProjectFiles.of("runbooks/postgres-cluster/rules").toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("bundle.yaml: missing");
    }
}
