package dev.runbook.cli.command;

import dev.runbook.operator.testkit.ProjectFiles;
import dev.runbook.operator.reload.BundleConfigMaps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static dev.runbook.operator.testkit.Objects.at;
import static org.assertj.core.api.Assertions.assertThat;

class PackCommandTest {
    @Test
    @SuppressWarnings("unchecked")
    void aBundleIsPrintedAsALabelledConfigMapCarryingEveryFile() {
        CommandResult result = CommandResult.run("pack", ProjectFiles.of("runbooks/postgres-cluster").toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        Map<String, Object> configMap = new Yaml().load(result.out());
        assertThat(configMap).containsEntry("apiVersion", "v1").containsEntry("kind", "ConfigMap");
        assertThat((String) at(configMap, "metadata.name")).isEqualTo("runbook-bundle-postgres-cluster");
        assertThat((Map<String, Object>) at(configMap, "metadata.labels")).containsEntry(BundleConfigMaps.LABEL, "postgres-cluster");
        assertThat((Object) at(configMap, "metadata.namespace")).isNull();
        assertThat((Map<String, Object>) configMap.get("data"))
                .isEqualTo(BundleConfigMaps.pack(ProjectFiles.of("runbooks/postgres-cluster")));
        // Files read as themselves: literal blocks, not escaped strings.
        assertThat(result.out()).contains("  rules__failover.drl: |");
    }

    @Test
    void nameAndNamespaceCanBeGiven() {
        CommandResult result = CommandResult.run("pack", ProjectFiles.of("runbooks/postgres-cluster").toString(),
                "--name", "pg-rules", "--namespace", "runbook-system");

        Map<String, Object> configMap = new Yaml().load(result.out());
        assertThat((String) at(configMap, "metadata.name")).isEqualTo("pg-rules");
        assertThat((String) at(configMap, "metadata.namespace")).isEqualTo("runbook-system");
    }

    @Test
    void aDirectoryWithoutBundleYamlIsNamed() {
        CommandResult result = CommandResult.run("pack", ProjectFiles.of("runbooks/postgres-cluster/rules").toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("bundle.yaml: missing");
    }

    @Test
    void aBundleThatDoesNotCompileIsNotPackedAndTheProblemIsNamed() {
        CommandResult result = CommandResult.run("pack", ProjectFiles.of("engine/src/test/resources/bundles/broken-syntax").toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.out()).isEmpty();
        assertThat(result.err()).startsWith("rules/failover.drl:8:1: ");
    }

    @Test
    void aBundleWhoseScenarioFailsIsNotPackedAndTheScenarioIsNamedFirst(@TempDir Path work) throws IOException {
        Path bundle = copyOf(ProjectFiles.of("engine/src/test/resources/bundles/example"), work);
        try (var failing = Files.list(bundle.resolve("failing-tests"))) {
            for (Path file : failing.toList()) Files.copy(file, bundle.resolve("tests").resolve(file.getFileName()));
        }

        CommandResult result = CommandResult.run("pack", bundle.toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.out()).isEmpty();
        assertThat(result.err().lines().toList().get(0)).startsWith("scenarios failed: tests/wrong.yaml: ");
        assertThat(result.err().lines().toList().get(1)).startsWith("nothing was printed: fix the bundle");

        CommandResult unchecked = CommandResult.run("pack", bundle.toString(), "--no-check");
        assertThat(unchecked.exitCode()).as(unchecked.err()).isZero();
        assertThat(unchecked.out()).contains("kind: ConfigMap", "tests__wrong.yaml");
    }

    /** The README's command against a deploy/ install: the shipped bundle, unchanged, under the installed policy. */
    @Test
    void theShippedBundlePacksUnderThePolicyDeployInstalls() {
        CommandResult result = CommandResult.run("pack", ProjectFiles.of("runbooks/postgres-cluster").toString(),
                "--policy", ProjectFiles.of("deploy/15-policy.yaml").toString(), "--namespace", "runbook-system");

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).contains("kind: ConfigMap", "  rules__failover.drl: |");
    }

    /** What the operator would refuse, pack refuses: here a bundle deploy/'s policy grants no namespace. */
    @Test
    void aBundleThePolicyGrantsNothingIsNotPackedAndThePolicyIsNamed() {
        String deploy = ProjectFiles.of("deploy/15-policy.yaml").toString();
        CommandResult result = CommandResult.run("pack", ProjectFiles.of("runbooks/app-release").toString(), "--policy", deploy);

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.out()).isEmpty();
        assertThat(result.err().lines().toList().get(0)).isEqualTo(ProjectFiles.of("runbooks/app-release") + ": refused: " + deploy
                + " grants bundle app-release no namespace (namespaces []), so it could act nowhere: an administrator names the"
                + " namespaces it may act in under bundles.app-release.namespaces in the policy file (docs/security.md)");
    }

    @Test
    void aBundleThatReadsNodesThePolicyDoesNotGrantIsNotPacked(@TempDir Path work) throws IOException {
        Path policy = Files.writeString(work.resolve("policy.yaml"), """
                bundles:
                  postgres-cluster:
                    namespaces: [databases]
                    clusterScopedReads: []
                """);
        CommandResult result = CommandResult.run("pack", ProjectFiles.of("runbooks/postgres-cluster").toString(), "--policy", policy.toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err().lines().toList().get(0)).contains("refused: bundle postgres-cluster reads the cluster-scoped Node",
                "clusterScopedReads");
    }

    private static Path copyOf(Path bundle, Path work) throws IOException {
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
