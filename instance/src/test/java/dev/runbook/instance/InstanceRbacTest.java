package dev.runbook.instance;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** deploy/postgres/instance-rbac.yaml grants what the instance manager calls, and nothing more. */
class InstanceRbacTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theRoleAllowsOnlyWhatTheInstanceManagerDoes() throws IOException {
        List<HasMetadata> objects;
        try (InputStream in = Files.newInputStream(ROOT.resolve("deploy/postgres/instance-rbac.yaml"))) {
            objects = Serialization.unmarshal(in);
        }
        assertThat(objects).extracting(HasMetadata::getKind).containsExactly("ServiceAccount", "Role", "RoleBinding");
        Role role = (Role) objects.get(1);
        assertThat(role.getRules()).extracting(r -> String.join(",", r.getApiGroups()) + "/" + String.join(",", r.getResources())
                + ":" + String.join(",", r.getVerbs()))
                .containsExactly("/pods:get,patch", "postgres.runbook.dev/postgresclusters:get", "batch/jobs:get,patch", "/events:create");
        assertThat(role.getRules()).flatExtracting(PolicyRule::getVerbs).doesNotContain("list", "watch", "update", "delete", "*");
    }

    @Test
    void theStatefulSetRunsItsPodsAsThatServiceAccount() throws IOException {
        String template = Files.readString(ROOT.resolve("runbooks/postgres-cluster/templates/statefulset.yaml"));
        assertThat(template).contains("serviceAccountName: postgres-instance").contains("command: [/opt/runbook/instance-manager]")
                .contains("path: /readyz").contains("path: /healthz").contains("secretKeyRef");
    }
}
