package dev.runbook.cli.deploy;

import dev.runbook.cli.scaffold.NewBundle;
import dev.runbook.cli.scaffold.Scaffold;
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

/**
 * Every CRD the project ships, and the one {@code runbook new} writes, keeps the per-condition
 * {@code observedGeneration} the operator writes (docs/operations.md#what-the-operator-writes-on-each-resource):
 * its conditions' schema declares it, or the status keeps unknown fields. A CRD that prunes it still
 * works (the operator learns that and stops writing the field), but its users lose the field.
 */
class ConditionSchemasTest {
    @Test
    void everyShippedCrdKeepsEachConditionsObservedGeneration() throws IOException {
        Path root = DeployManifestsTest.projectRoot();
        List<Path> crds = new ArrayList<>();
        // The bundles' crds/ are the only CRD files: the chart links to them, deploy/10-crds is rendered from the
        // chart (DeployManifestsTest.theCrdsAreTheBundlesOwn).
        try (Stream<Path> files = Files.walk(root.resolve("runbooks"))) {
            files.filter(f -> f.toString().endsWith(".yaml") && f.getParent().getFileName().toString().equals("crds")).forEach(crds::add);
        }
        assertThat(crds).as("the bundles' CRDs").hasSizeGreaterThanOrEqualTo(2);
        for (Path crd : crds) assertKeepsConditionGenerations(crd);
    }

    @Test
    void theCrdThatRunbookNewWritesKeepsIt(@TempDir Path work) throws IOException {
        Scaffold.write(work.resolve("greeter"), NewBundle.of("greeter", "example.com/v1/Greeter"));
        try (Stream<Path> files = Files.list(work.resolve("greeter/crds"))) {
            List<Path> crds = files.toList();
            assertThat(crds).hasSize(1);
            assertKeepsConditionGenerations(crds.get(0));
        }
    }

    @SuppressWarnings("unchecked")
    private static void assertKeepsConditionGenerations(Path file) throws IOException {
        Map<String, Object> crd = new Yaml().load(Files.readString(file));
        List<Map<String, Object>> versions = (List<Map<String, Object>>) ((Map<String, Object>) crd.get("spec")).get("versions");
        for (Map<String, Object> version : versions) {
            Map<String, Object> schema = (Map<String, Object>) ((Map<String, Object>) version.get("schema")).get("openAPIV3Schema");
            Map<String, Object> status = (Map<String, Object>) ((Map<String, Object>) schema.get("properties")).get("status");
            assertThat(status).as("%s, version %s: a status schema", file, version.get("name")).isNotNull();
            Map<String, Object> properties = (Map<String, Object>) status.get("properties");
            Map<String, Object> conditions = properties == null ? null : (Map<String, Object>) properties.get("conditions");
            if (conditions == null) {
                assertThat(status.get("x-kubernetes-preserve-unknown-fields"))
                        .as("%s, version %s: status.conditions is not declared, so the status must keep unknown fields", file,
                                version.get("name")).isEqualTo(true);
                continue;
            }
            Map<String, Object> item = (Map<String, Object>) conditions.get("items");
            Map<String, Object> itemProperties = (Map<String, Object>) item.get("properties");
            assertThat(Boolean.TRUE.equals(item.get("x-kubernetes-preserve-unknown-fields"))
                    || (itemProperties != null && itemProperties.containsKey("observedGeneration")))
                    .as("%s, version %s: status.conditions[] must declare observedGeneration: {type: integer}", file,
                            version.get("name")).isTrue();
        }
    }
}
