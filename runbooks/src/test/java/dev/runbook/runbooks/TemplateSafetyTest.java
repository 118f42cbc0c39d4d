package dev.runbook.runbooks;

import dev.runbook.testkit.scenario.CycleTester;
import dev.runbook.rules.fact.ObjectPath;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A value a user writes in the spec stays one value in the objects the templates render, even one the
 * CRD's schema would refuse (as an older CRD, or a cluster without the schema, might let through):
 * the templates quote what they take from the spec, so {@code image: {evil:1}} renders as the string
 * "{evil:1}", which the API server then refuses as an image, instead of as a YAML mapping.
 */
class TemplateSafetyTest {
    private static final Path BUNDLE = Path.of("postgres-cluster");

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cluster(String image, String size) {
        Map<String, Object> spec = new LinkedHashMap<>(Map.of("instances", 1, "image", image, "storage", Map.of("size", size)));
        return new LinkedHashMap<>(Map.of("apiVersion", "postgres.runbook.dev/v1alpha1", "kind", "PostgresCluster",
                "metadata", Map.of("name", "pg", "namespace", "demo", "uid", "u-1"), "spec", spec));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{evil: 1}", "{evil:1}", "[a, b]", "x:1\nhostPID: true", "'quoted'", "\"double\""})
    @SuppressWarnings("unchecked")
    void aSpecValueRendersAsOneStringWhateverItHolds(String value) {
        List<Map<String, Object>> actions = CycleTester.of(BUNDLE).given(cluster(value, value)).fire().actions();
        Map<String, Object> statefulSet = actions.stream()
                .filter(a -> "apply".equals(a.get("action")) && "StatefulSet".equals(((Map<String, Object>) a.get("target")).get("kind")))
                .map(a -> (Map<String, Object>) a.get("object")).findFirst().orElseThrow();
        assertThat(ObjectPath.read(statefulSet, "spec.template.spec.containers[0].image")).isEqualTo(value);
        assertThat(ObjectPath.read(statefulSet, "spec.volumeClaimTemplates[0].spec.resources.requests.storage")).isEqualTo(value);
        assertThat(ObjectPath.read(statefulSet, "spec.template.spec.hostPID")).isNull();
    }

    /**
     * The object store's values: a Secret's name that YAML would read as structure stays one string in
     * the StatefulSet's secretKeyRef; a destination or endpoint the rules cannot use never reaches the
     * ConfigMap, so the instances are not told to archive anywhere.
     */
    @ParameterizedTest
    @ValueSource(strings = {"{evil: 1}", "[a, b]", "x\nhostPID: true"})
    @SuppressWarnings("unchecked")
    void anObjectStoreValueRendersAsOneStringOrNotAtAll(String value) {
        Map<String, Object> cluster = cluster("postgres:16.4", "1Gi");
        ((Map<String, Object>) cluster.get("spec")).put("backup", Map.of("objectStore",
                Map.of("destinationPath", "s3://backups/pg" + value, "endpointURL", value, "s3Credentials", Map.of("secretName", value))));
        List<Map<String, Object>> actions = CycleTester.of(BUNDLE).given(cluster).fire().actions();
        Map<String, Object> statefulSet = applied(actions, "StatefulSet");
        Map<String, Object> accessKey = ((List<Map<String, Object>>) ObjectPath.read(statefulSet, "spec.template.spec.containers[0].env"))
                .stream().filter(e -> "BACKUP_ACCESS_KEY_ID".equals(e.get("name"))).findFirst().orElseThrow();
        assertThat(ObjectPath.read(accessKey, "valueFrom.secretKeyRef.name")).isEqualTo(value);
        assertThat(ObjectPath.read(statefulSet, "spec.template.spec.hostPID")).isNull();
        Map<String, Object> data = (Map<String, Object>) applied(actions, "ConfigMap").get("data");
        assertThat(data).doesNotContainKeys("BACKUP_DESTINATION_PATH", "BACKUP_ENDPOINT_URL", "hostPID");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> applied(List<Map<String, Object>> actions, String kind) {
        return actions.stream()
                .filter(a -> "apply".equals(a.get("action")) && kind.equals(((Map<String, Object>) a.get("target")).get("kind")))
                .map(a -> (Map<String, Object>) a.get("object")).findFirst().orElseThrow();
    }
}
