package dev.runbook.cli.deploy;

import dev.runbook.cli.command.CommandResult;
import dev.runbook.operator.testkit.ProjectFiles;
import dev.runbook.cli.rbac.OperatorRbac;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chart's RBAC is derived, not written by hand (docs/architecture.md#one-install-source): deploy/chart/rbac-rules.yaml
 * is what {@code runbook rbac BUNDLE --chart-rules} prints for the bundle deploy/image/bundles puts in the image,
 * and the chart's values leave the rules to it. deploy/20-rbac.yaml is rendered from the chart (deploy/check-chart
 * holds it to a fresh rendering, DeployManifestsTest to the bundle's needs).
 */
class ChartRbacRulesTest {
    static final String RULES = "deploy/chart/rbac-rules.yaml";

    @Test
    void theChartsRulesAreWhatRunbookRbacDerivesForTheImagesBundle() throws IOException {
        CommandResult derived = CommandResult.run("rbac", imageBundle().toString(), "--chart-rules");
        assertThat(derived.exitCode()).as(derived.err()).isZero();
        assertThat(Files.readString(ProjectFiles.of(RULES)))
                .as("%s is not what `runbook rbac %s --chart-rules` derives from the bundle now: run deploy/render (it writes"
                        + " the file again and renders deploy/ from the chart), then commit both", RULES, ProjectFiles.root().relativize(imageBundle()))
                .isEqualTo(derived.out());
    }

    @Test
    @SuppressWarnings("unchecked")
    void theChartsValuesLeaveTheRulesToTheDerivation() throws IOException {
        Map<String, Object> values = new Yaml().load(Files.readString(ProjectFiles.of("deploy/chart/values.yaml")));
        Map<String, Object> rbac = (Map<String, Object>) values.get("rbac");
        assertThat((List<Object>) rbac.get("rules"))
                .as("deploy/chart/values.yaml: rbac.rules is empty by default, so that the chart grants what %s holds", RULES).isEmpty();
    }

    /** The Role in the operator's own namespace grants exactly the operator's own needs, as `runbook rbac` derives them. */
    @Test
    @SuppressWarnings("unchecked")
    void theRoleInTheOperatorsNamespaceGrantsExactlyTheOperatorsOwnNeeds() throws IOException {
        Path file = ProjectFiles.of("deploy/30-rbac-own-namespace.yaml");
        List<Map<String, Object>> roles = new ArrayList<>();
        for (Object document : new Yaml().loadAll(Files.readString(file))) {
            if (document instanceof Map<?, ?> object && "Role".equals(object.get("kind"))) roles.add((Map<String, Object>) object);
        }
        assertThat(roles).as("%s: one Role", file).hasSize(1);
        assertThat(DeployManifestsTest.rules(new DeployManifestsTest.Manifest(file, roles.get(0))))
                .as("deploy/30-rbac-own-namespace.yaml's Role against OperatorRbac.ownNamespace(): run deploy/render").isEqualTo(OperatorRbac.ownNamespace());
    }

    /** The source directory of the one bundle deploy/image/bundles puts in the image. */
    static Path imageBundle() throws IOException {
        List<String> sources = Files.readAllLines(ProjectFiles.of("deploy/image/bundles")).stream()
                .filter(line -> !line.isBlank() && !line.startsWith("#")).map(line -> line.trim().split("\\s+")[0]).toList();
        assertThat(sources).as("deploy/image/bundles: the image holds one bundle, whose rules the chart grants").hasSize(1);
        return ProjectFiles.of(sources.get(0).replaceAll("/$", ""));
    }
}
