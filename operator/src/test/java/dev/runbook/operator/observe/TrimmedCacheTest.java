package dev.runbook.operator.observe;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** What the informers keep: every field but other field managers' managedFields entries. */
class TrimmedCacheTest {
    final TrimmedCache trimmed = new TrimmedCache("runbook-postgres-cluster");

    static ManagedFieldsEntry entry(String manager, String operation, String subresource) {
        return new ManagedFieldsEntryBuilder().withManager(manager).withOperation(operation).withSubresource(subresource)
                .withApiVersion("apps/v1").withFieldsType("FieldsV1").build();
    }

    static GenericKubernetesResource statefulSet(List<ManagedFieldsEntry> entries) {
        GenericKubernetesResource object = new GenericKubernetesResource();
        object.setApiVersion("apps/v1");
        object.setKind("StatefulSet");
        object.setMetadata(new ObjectMetaBuilder().withName("pg-1").withNamespace("db").withResourceVersion("42")
                .withLabels(Map.of("app", "pg-1")).withManagedFields(new ArrayList<>(entries)).build());
        object.setAdditionalProperty("spec", Map.of("replicas", 3));
        object.setAdditionalProperty("status", Map.of("readyReplicas", 2));
        return object;
    }

    @Test
    void keepsThisFieldManagersEntriesAndEverythingElseButDropsOtherManagersEntries() {
        var own = entry("runbook-postgres-cluster", "Apply", null);
        var ownStatus = entry("runbook-postgres-cluster", "Update", "status");
        var object = statefulSet(List.of(entry("kube-controller-manager", "Update", "status"), own,
                entry("kubectl-client-side-apply", "Update", null), ownStatus));

        var kept = trimmed.trim(object);

        assertThat(kept.getMetadata().getManagedFields()).containsExactly(own, ownStatus);
        assertThat(kept.getMetadata().getLabels()).isEqualTo(Map.of("app", "pg-1"));
        assertThat(kept.getMetadata().getResourceVersion()).isEqualTo("42");
        assertThat(kept.getAdditionalProperties()).containsEntry("spec", Map.of("replicas", 3))
                .containsEntry("status", Map.of("readyReplicas", 2));
    }

    @Test
    void anObjectWithoutOtherManagersEntriesIsLeftAsItIs() {
        var own = entry("runbook-postgres-cluster", "Apply", null);
        var object = statefulSet(List.of(own));
        var entries = object.getMetadata().getManagedFields();

        assertThat(trimmed.trim(object).getMetadata().getManagedFields()).isSameAs(entries).containsExactly(own);
        assertThat(trimmed.trim(statefulSet(List.of())).getMetadata().getManagedFields()).isEmpty();
    }

    @Test
    void theStoreKeepsTheTrimmedObjectUnderItsKey() {
        ItemStore<GenericKubernetesResource> store = trimmed.storeFor(Set.of("db"));
        var object = statefulSet(List.of(entry("kube-controller-manager", "Update", "status"),
                entry("runbook-postgres-cluster", "Apply", null)));

        store.put(store.getKey(object), object);

        var cached = store.get("db/pg-1");
        assertThat(cached.getMetadata().getResourceVersion()).isEqualTo("42");
        // a secondary (a plain generic resource) is kept compact: its properties and managedFields as
        // JSON text, which the whole object (what the apply check reads) has again
        assertThat(cached).isInstanceOf(dev.runbook.operator.kube.CompactResource.class);
        var whole = ((dev.runbook.operator.kube.CompactResource) cached).toMap(new io.fabric8.kubernetes.client.utils.KubernetesSerialization());
        List<?> managedFields = (List<?>) dev.runbook.rules.fact.ObjectPath.read(whole, "metadata.managedFields");
        assertThat(managedFields.stream().map(e -> (Object) ((Map<?, ?>) e).get("manager")).toList()).containsExactly("runbook-postgres-cluster");
        assertThat(cached.getAdditionalProperties()).isEqualTo(Map.of("spec", Map.of("replicas", 3), "status", Map.of("readyReplicas", 2)));
    }

    @Test
    void aSecondaryWithTheLongsOfAWatchEventIsKeptCompactAndReadsBackWithThem() {
        // fabric8 reads a watch event as the kind's typed model, whose int64 fields become Longs
        ItemStore<GenericKubernetesResource> store = trimmed.storeFor(Set.of("db"));
        var object = statefulSet(List.of(entry("runbook-postgres-cluster", "Apply", null)));
        object.setAdditionalProperty("status", Map.of("readyReplicas", 2, "observedGeneration", 7L));

        store.put(store.getKey(object), object);

        var cached = store.get("db/pg-1");
        assertThat(cached).isInstanceOf(dev.runbook.operator.kube.CompactResource.class);
        assertThat(cached.getAdditionalProperties()).isEqualTo(Map.of("spec", Map.of("replicas", 3),
                "status", Map.of("readyReplicas", 2, "observedGeneration", 7L)));
        assertThat(((Map<?, ?>) cached.getAdditionalProperties().get("status")).get("observedGeneration")).isInstanceOf(Long.class);
    }

    @Test
    void onlyASourceWithOneInformerGetsATrimmedStore() {
        // JOSDK shares one store between a source's informers, one per namespace, and each relist
        // drops what its own list did not return: several namespaces keep JOSDK's own store.
        assertThat(trimmed.<GenericKubernetesResource>storeFor(Set.of())).isNotNull();
        assertThat(trimmed.<GenericKubernetesResource>storeFor(Set.of("db"))).isNotNull();
        assertThat(trimmed.<GenericKubernetesResource>storeFor(Set.of("db", "apps"))).isNull();
    }

    /**
     * A primary of its own class stays that object (JOSDK hands its class to the reconciler, by way of a
     * JSON round trip), its spec and status frozen: the same JSON, and a clone as modifiable as before.
     */
    @Test
    void aPrimaryOfItsOwnClassIsKeptWithItsFieldsFrozen() {
        var serialization = new io.fabric8.kubernetes.client.utils.KubernetesSerialization();
        var primary = new Primary();
        primary.setApiVersion("postgres.runbook.dev/v1alpha1");
        primary.setKind("PostgresCluster");
        primary.setMetadata(new ObjectMetaBuilder().withName("pg-1").withLabels(Map.of("app", "pg")).build());
        primary.setAdditionalProperty("spec", new java.util.LinkedHashMap<>(Map.of("instances", 3, "image", "postgres:17")));
        primary.setAdditionalProperty("status", new java.util.LinkedHashMap<>(Map.of("phase", "Healthy",
                "conditions", List.of(Map.of("type", "Ready", "status", "True")))));
        String json = serialization.asJson(primary);

        assertThat(trimmed.keep(primary)).isSameAs(primary);
        assertThat(serialization.asJson(primary)).as("the same JSON").isEqualTo(json);
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) primary.getAdditionalProperties().get("spec");
        assertThat(spec).containsEntry("instances", 3L);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> spec.put("instances", 5))
                .isInstanceOf(UnsupportedOperationException.class);

        Primary clone = serialization.clone(primary); // what JOSDK hands each cycle
        assertThat(clone).isNotSameAs(primary).isInstanceOf(Primary.class);
        assertThat(serialization.asJson(clone)).isEqualTo(json);
        @SuppressWarnings("unchecked")
        Map<String, Object> cloned = (Map<String, Object>) clone.getAdditionalProperties().get("spec");
        cloned.put("instances", 5);
        assertThat(cloned).containsEntry("instances", 5);
    }

    /** A primary's class of its own, as the operator generates one per bundle. */
    public static class Primary extends GenericKubernetesResource {}
}
