package dev.runbook.operator.act;

import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Primary;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class OwnerReferencesTest {
    static final Primary APP = new Primary(Map.of("apiVersion", "test.runbook.dev/v1", "kind", "WebApp",
            "metadata", Map.of("name", "shop", "namespace", "demo", "uid", "u-1")));

    static Map<String, Object> configMap(String namespace, Map<String, Object> extraMetadata) {
        Map<String, Object> metadata = new java.util.LinkedHashMap<>(Map.of("name", "shop-config", "namespace", namespace));
        metadata.putAll(extraMetadata);
        return Map.of("apiVersion", "v1", "kind", "ConfigMap", "metadata", metadata);
    }

    @Test
    void anObjectInThePrimarysNamespaceGetsAControllerReference() {
        Map<String, Object> owned = OwnerReferences.withOwner(configMap("demo", Map.of()),
                ObjectRef.of("v1", "ConfigMap", "demo", "shop-config"), APP);
        assertThat((List<Object>) ((Map<String, Object>) owned.get("metadata")).get("ownerReferences")).containsExactly(Map.of(
                "apiVersion", "test.runbook.dev/v1", "kind", "WebApp", "name", "shop", "uid", "u-1",
                "controller", true, "blockOwnerDeletion", true));
    }

    @Test
    void otherOwnersAreKeptAndTheReferenceIsNotAddedTwice() {
        Map<String, Object> other = Map.of("apiVersion", "v1", "kind", "Other", "name", "o", "uid", "u-9");
        Map<String, Object> owned = OwnerReferences.withOwner(configMap("demo", Map.of("ownerReferences", List.of(other))),
                ObjectRef.of("v1", "ConfigMap", "demo", "shop-config"), APP);
        assertThat((List<Object>) ((Map<String, Object>) owned.get("metadata")).get("ownerReferences")).hasSize(2).startsWith(other);
        assertThat(OwnerReferences.withOwner(owned, ObjectRef.of("v1", "ConfigMap", "demo", "shop-config"), APP)).isSameAs(owned);
    }

    @Test
    void noReferenceAcrossNamespacesNorOnClusterScopedObjectsNorOnThePrimaryItself() {
        Map<String, Object> elsewhere = configMap("other", Map.of());
        assertThat(OwnerReferences.withOwner(elsewhere, ObjectRef.of("v1", "ConfigMap", "other", "shop-config"), APP)).isSameAs(elsewhere);
        Map<String, Object> clusterScoped = Map.of("apiVersion", "v1", "kind", "Namespace", "metadata", Map.of("name", "x"));
        assertThat(OwnerReferences.withOwner(clusterScoped, ObjectRef.of("v1", "Namespace", "", "x"), APP)).isSameAs(clusterScoped);
        Map<String, Object> self = APP.getObject();
        assertThat(OwnerReferences.withOwner(self, APP.getRef(), APP)).isSameAs(self);
    }
}
