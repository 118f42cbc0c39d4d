package dev.runbook.operator.cli;

import dev.runbook.operator.reload.BundleConfigMaps;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

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
}
