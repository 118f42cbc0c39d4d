package dev.runbook.instance;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The Role the postgres-cluster runbook makes for each cluster's instances (templates/instance-role.yaml)
 * grants what the instance manager calls, and nothing more, on its own cluster's objects where RBAC can
 * name them; the StatefulSet and the backup Jobs run as the ServiceAccount it is bound to.
 */
class InstanceRbacTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path TEMPLATES = ROOT.resolve("runbooks/postgres-cluster/templates");

    /** The template as the runbook renders it for the cluster demo/pg (it reads nothing but the cluster's name). */
    private static HasMetadata rendered(String template) throws IOException {
        String text = Files.readString(TEMPLATES.resolve(template))
                .replace("@{primary.name}", "pg").replace("@{primary.namespace}", "demo");
        return Serialization.unmarshal(text);
    }

    @Test
    void theRoleAllowsOnlyWhatTheInstanceManagerDoes() throws IOException {
        Role role = (Role) rendered("instance-role.yaml");
        assertThat(role.getMetadata().getName()).isEqualTo("pg-instance");
        assertThat(role.getRules()).extracting(r -> String.join(",", r.getApiGroups()) + "/" + String.join(",", r.getResources())
                + ":" + String.join(",", r.getVerbs()))
                .containsExactly("/pods:get,patch", "postgres.runbook.dev/postgresclusters:get", "batch/jobs:get,patch", "/events:create");
        assertThat(role.getRules()).flatExtracting(PolicyRule::getVerbs).doesNotContain("list", "watch", "update", "delete", "*");
        assertThat(role.getRules().get(0).getResourceNames()).as("its cluster's instance pods, every ordinal the CRD allows")
                .containsExactlyElementsOf(IntStream.range(0, maxInstances()).mapToObj(i -> "pg-" + i).toList());
        assertThat(role.getRules().get(1).getResourceNames()).containsExactly("pg");
    }

    @Test
    void theBindingGivesThatRoleToTheClustersServiceAccountOnly() throws IOException {
        RoleBinding binding = (RoleBinding) rendered("instance-rolebinding.yaml");
        assertThat(binding.getRoleRef().getKind()).isEqualTo("Role");
        assertThat(binding.getRoleRef().getName()).isEqualTo("pg-instance");
        assertThat(binding.getSubjects()).singleElement().satisfies(subject -> {
            assertThat(subject.getKind()).isEqualTo("ServiceAccount");
            assertThat(subject.getName()).isEqualTo(rendered("instance-serviceaccount.yaml").getMetadata().getName());
            assertThat(subject.getNamespace()).isEqualTo("demo");
        });
    }

    @Test
    void theStatefulSetAndTheBackupJobsRunAsThatServiceAccount() throws IOException {
        String statefulSet = Files.readString(TEMPLATES.resolve("statefulset.yaml"));
        assertThat(statefulSet).contains("serviceAccountName: @{primary.name}-instance").contains("command: [/opt/runbook/instance-manager]")
                .contains("path: /readyz").contains("path: /healthz").contains("secretKeyRef");
        assertThat(Files.readString(TEMPLATES.resolve("backup-job.yaml"))).contains("serviceAccountName: @{primary.name}-instance");
    }

    /** spec.instances' maximum in the CRD. */
    private static int maxInstances() throws IOException {
        List<String> lines = Files.readAllLines(ROOT.resolve("runbooks/postgres-cluster/crds/postgresclusters.postgres.runbook.dev.yaml"));
        int at = lines.indexOf("                instances:");
        return lines.subList(at, at + 5).stream().filter(l -> l.trim().startsWith("maximum:"))
                .map(l -> Integer.parseInt(l.trim().substring("maximum:".length()).trim())).findFirst().orElseThrow();
    }
}
