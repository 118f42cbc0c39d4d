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
    void theObjectIsNotChangedAndOnlyTheWayToItsOwnerReferencesIsNew() {
        Map<String, Object> spec = Map.of("replicas", 3L, "template", Map.of("spec", Map.of()));
        Map<String, Object> object = dev.runbook.rules.fact.Values.frozenMap(Map.of("apiVersion", "apps/v1", "kind", "StatefulSet",
                "metadata", Map.of("name", "pg", "namespace", "demo", "labels", Map.of("app", "pg")), "spec", spec));

        Map<String, Object> owned = OwnerReferences.withOwner(object, ObjectRef.of("apps/v1", "StatefulSet", "demo", "pg"), APP);

        assertThat((Map<String, Object>) object.get("metadata")).doesNotContainKey("ownerReferences");
        assertThat(owned.keySet()).containsExactlyElementsOf(object.keySet());
        assertThat(owned.get("spec")).as("shared, not copied").isSameAs(object.get("spec"));
        Map<String, Object> metadata = (Map<String, Object>) owned.get("metadata");
        assertThat(metadata.get("labels")).isSameAs(((Map<String, Object>) object.get("metadata")).get("labels"));
        List<String> keys = new java.util.ArrayList<>(((Map<String, Object>) object.get("metadata")).keySet());
        keys.add("ownerReferences");
        assertThat(new java.util.ArrayList<>(metadata.keySet())).containsExactlyElementsOf(keys);
        assertThat(owned).isEqualTo(withOwnerDeepCopied(object));
        assertThat(owned.toString()).isEqualTo(withOwnerDeepCopied(object).toString());
    }

    /** The object with the owner reference added to a deep copy, as it was built before. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> withOwnerDeepCopied(Map<String, Object> object) {
        Map<String, Object> copy = dev.runbook.rules.fact.Values.thawed(object);
        Map<String, Object> metadata = (Map<String, Object>) copy.get("metadata");
        metadata.put("ownerReferences", List.of(OwnerReferences.of(APP)));
        return copy;
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

    // ---- a shard member's label (docs/sharding.md#secondaries) ----------------------------------

    static final Map<String, String> SHARD = Map.of("runbook.dev/shard", "runbook-1");

    @Test
    @SuppressWarnings("unchecked")
    void anOwnedObjectCarriesTheMembersLabelOnItselfNeverInItsTemplate() {
        Map<String, Object> template = Map.of("metadata", Map.of("labels", Map.of("app", "pg")), "spec", Map.of());
        Map<String, Object> statefulSet = Map.of("apiVersion", "apps/v1", "kind", "StatefulSet",
                "metadata", Map.of("name", "pg", "namespace", "demo", "labels", Map.of("app", "pg")),
                "spec", Map.of("template", template));

        Map<String, Object> owned = OwnerReferences.withOwner(statefulSet, ObjectRef.of("apps/v1", "StatefulSet", "demo", "pg"), APP, SHARD);

        assertThat((Map<String, Object>) ((Map<String, Object>) owned.get("metadata")).get("labels"))
                .containsExactlyInAnyOrderEntriesOf(Map.of("app", "pg", "runbook.dev/shard", "runbook-1"));
        assertThat(((Map<String, Object>) owned.get("spec")).get("template")).as("the pods' template, untouched: no roll").isSameAs(template);
        assertThat(OwnerReferences.withOwner(owned, ObjectRef.of("apps/v1", "StatefulSet", "demo", "pg"), APP, SHARD))
                .as("labelled and owned already: nothing new").isSameAs(owned);
    }

    @Test
    @SuppressWarnings("unchecked")
    void anObjectAlreadyOwnedButUnlabelledGetsTheLabelAlone() {
        Map<String, Object> owned = OwnerReferences.withOwner(configMap("demo", Map.of()), ObjectRef.of("v1", "ConfigMap", "demo", "shop-config"), APP);
        Map<String, Object> labelled = OwnerReferences.withOwner(owned, ObjectRef.of("v1", "ConfigMap", "demo", "shop-config"), APP, SHARD);
        Map<String, Object> metadata = (Map<String, Object>) labelled.get("metadata");
        assertThat((List<Object>) metadata.get("ownerReferences")).hasSize(1);
        assertThat((Map<String, Object>) metadata.get("labels")).isEqualTo(Map.of("runbook.dev/shard", "runbook-1"));
    }

    @Test
    void whatThePrimaryDoesNotOwnIsNotLabelled() {
        Map<String, Object> elsewhere = configMap("other", Map.of());
        assertThat(OwnerReferences.withOwner(elsewhere, ObjectRef.of("v1", "ConfigMap", "other", "shop-config"), APP, SHARD))
                .as("shared objects elsewhere would flip between members").isSameAs(elsewhere);
        Map<String, Object> self = APP.getObject();
        assertThat(OwnerReferences.withOwner(self, APP.getRef(), APP, SHARD)).as("the primary's label is the sharder's").isSameAs(self);
    }
}
