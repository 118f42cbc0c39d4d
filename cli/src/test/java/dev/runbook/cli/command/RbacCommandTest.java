package dev.runbook.cli.command;

import dev.runbook.operator.command.ExitCodes;
import dev.runbook.operator.testkit.ProjectFiles;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code runbook rbac}: the least-privilege Role the operator needs for a bundle, as YAML kubectl applies. */
class RbacCommandTest {

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> documents(String yaml) {
        List<Map<String, Object>> documents = new ArrayList<>();
        for (Object document : new Yaml().loadAll(yaml)) documents.add((Map<String, Object>) document);
        return documents;
    }

    @Test
    void appReleaseGetsARoleAndBindingInEachNamespaceWithWhatItsRulesDo() {
        CommandResult result = CommandResult.run("rbac", ProjectFiles.of("runbooks/app-release").toString(),
                "--namespace", "shop", "--namespace", "blog");

        assertThat(result.exitCode()).as(result.err()).isZero();
        List<Map<String, Object>> documents = documents(result.out());
        assertThat(documents).extracting(d -> d.get("kind")).containsExactly("Role", "RoleBinding", "Role", "RoleBinding");
        assertThat(documents).extracting(d -> (Object) ((Map<?, ?>) d.get("metadata")).get("namespace")).containsExactly("shop", "shop", "blog", "blog");
        assertThat(result.out())
                .contains("""
                          - apiGroups: [apps]
                            resources: [deployments]
                            verbs: [create, delete, get, list, patch, watch]
                        """)
                .contains("""
                          - apiGroups: [apps.runbook.dev]
                            resources: [appreleases]
                            verbs: [get, list, patch, update, watch]
                        """)
                .contains("""
                          - apiGroups: [batch]
                            resources: [jobs]
                            verbs: [create, get, list, patch, watch]
                        """)
                .contains("""
                        subjects:
                          - kind: ServiceAccount
                            name: runbook-operator
                            namespace: runbook-system
                        """);
    }

    @Test
    void withoutANamespaceItIsAClusterRole() {
        CommandResult result = CommandResult.run("rbac", ProjectFiles.of("runbooks/postgres-cluster").toString(),
                "--service-account", "ops/runner");

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(documents(result.out())).extracting(d -> d.get("kind")).containsExactly("ClusterRole", "ClusterRoleBinding");
        assertThat(result.out()).contains("name: runbook-postgres-cluster", "    name: runner\n    namespace: ops\n")
                .contains("resources: [pods]\n    verbs: [delete, get, list, patch, watch]")
                .contains("resources: [nodes]\n    verbs: [get, list, watch]");
    }

    @Test
    void theNodesABundleReadsGetAReadOnlyClusterRoleBesideTheNamespacedRoles() {
        CommandResult result = CommandResult.run("rbac", ProjectFiles.of("runbooks/postgres-cluster").toString(), "--namespace", "databases");

        assertThat(result.exitCode()).as(result.err()).isZero();
        List<Map<String, Object>> documents = documents(result.out());
        assertThat(documents).extracting(d -> d.get("kind")).containsExactly("Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding");
        assertThat(result.out().split("---\n")[0]).as("the namespaced Role").doesNotContain("nodes");
        assertThat(result.out().split("---\n")[2]).as("the ClusterRole")
                .contains("name: runbook-postgres-cluster-read-cluster")
                .contains("resources: [nodes]\n    verbs: [get, list, watch]")
                .doesNotContain("pods");
    }

    @Test
    void whatTheRolesABundleMakesGrantIsIncludedForRbacsEscalationCheck(@TempDir Path copy) throws IOException {
        Path bundle = copyOf(ProjectFiles.of("runbooks/postgres-cluster"), copy);
        CommandResult shipped = CommandResult.run("rbac", bundle.toString(), "--namespace", "databases");
        assertThat(shipped.exitCode()).as(shipped.err()).isZero();
        assertThat(shipped.out()).contains("# The bundle makes Roles (templates/instance-role.yaml)")
                .contains("resources: [rolebindings, roles]\n    verbs: [create, get, list, patch, watch]")
                .contains("resources: [configmaps, serviceaccounts, services]")
                .doesNotContain("secrets");

        // A Role that grants reading Secrets can be made only by an operator that may read them itself.
        Path role = bundle.resolve("templates/instance-role.yaml");
        Files.writeString(role, Files.readString(role) + """
                  - apiGroups: [""]
                    resources: [secrets]
                    verbs: [get]
                    resourceNames: [@{primary.name}-tls]
                """);
        CommandResult widened = CommandResult.run("rbac", bundle.toString(), "--namespace", "databases");
        assertThat(widened.exitCode()).as(widened.err()).isZero();
        assertThat(widened.out()).contains("resources: [secrets]\n    verbs: [get]");
    }

    private static Path copyOf(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) Files.createDirectories(target); else Files.copy(file, target);
            }
        }
        return to;
    }

    /** --chart-rules: the rules alone, the Role's and the cluster-scoped reads', as the Helm chart's rbac-rules.yaml holds them. */
    @Test
    @SuppressWarnings("unchecked")
    void chartRulesPrintsTheRulesAloneForTheChart() {
        CommandResult result = CommandResult.run("rbac", ProjectFiles.of("runbooks/app-release").toString(), "--chart-rules");

        assertThat(result.exitCode()).as(result.err()).isZero();
        Map<String, Object> file = new Yaml().load(result.out());
        assertThat(file).containsOnlyKeys("rules", "clusterReads", "ownNamespace");
        assertThat((List<Object>) file.get("clusterReads")).as("app-release reads nothing cluster-scoped").isEmpty();
        assertThat((List<Object>) file.get("rules")).contains(Map.of("apiGroups", List.of("apps"), "resources", List.of("deployments"),
                "verbs", List.of("create", "delete", "get", "list", "patch", "watch")));
        assertThat(result.out()).doesNotContain("kind:");
    }

    @Test
    void aServiceAccountThatIsNotNamespaceSlashNameIsRefused() {
        CommandResult result = CommandResult.run("rbac", ProjectFiles.of("runbooks/app-release").toString(), "--service-account", "runner");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("--service-account: 'runner' is not NAMESPACE/NAME");
    }
}
