package dev.runbook.operator.kube;

import dev.runbook.engine.bundle.BundleSpec;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A compact cached object reads back as exactly the object it was made from: what the cycle turns
 * into facts and the act phase compares with is unchanged, key order and number types included.
 * The objects are as a real control plane served them during the scale benchmark (managedFields of
 * several managers, kwok's pod status, a StatefulSet the operator applied).
 */
class CompactResourceTest {
    static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    /** A cached object as the informer deserializes it. */
    static GenericKubernetesResource cached(String name) {
        try (InputStream in = CompactResourceTest.class.getResourceAsStream("/cached/" + name + ".json")) {
            return SERIALIZATION.unmarshal(in, GenericKubernetesResource.class);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The whole object as KubeApi.toMap made it before objects were compacted. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> whole(GenericKubernetesResource object) {
        return SERIALIZATION.convertValue(object, LinkedHashMap.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"pod", "statefulset", "service", "configmap", "node", "postgrescluster"})
    void readsBackAsTheWholeObjectKeyOrderIncluded(String name) {
        GenericKubernetesResource object = cached(name);
        Map<String, Object> before = whole(object);

        CompactResource compact = CompactResource.of(object).orElseThrow();

        Map<String, Object> after = compact.toMap(SERIALIZATION);
        assertThat(after).isEqualTo(before);
        // LinkedHashMap.toString walks in insertion order, nested maps too: same text, same order
        assertThat(after.toString()).isEqualTo(before.toString());
        // what Jackson makes of the compact object itself (through the inherited any-getter), too
        assertThat(whole(compact).toString()).isEqualTo(before.toString());
        assertThat(compact.getMetadata()).isEqualTo(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder(object.getMetadata())
                .withManagedFields((java.util.List<io.fabric8.kubernetes.api.model.ManagedFieldsEntry>) null).build());
        assertThat(compact.getAdditionalProperties()).isEqualTo(object.getAdditionalProperties());
    }

    @Test
    void theFactsOfACompactObjectAreThoseOfTheWholeOne() {
        var spec = dev.runbook.engine.bundle.BundleSpecParser.parse("""
                name: pg
                version: 0.1.0
                primary: {apiVersion: postgres.runbook.dev/v1alpha1, kind: PostgresCluster, plural: postgresclusters}
                secondaries:
                  - {apiVersion: v1, kind: Pod, mapping: labels, selector: {postgres.runbook.dev/cluster: "{name}"}}
                  - {apiVersion: apps/v1, kind: StatefulSet, mapping: owner}
                """);
        var observer = new dev.runbook.operator.observe.Observer(spec);
        var primary = whole(cached("postgrescluster"));
        var now = java.time.Instant.parse("2026-12-02T00:00:00Z");

        var fromWhole = observer.observe(primary, java.util.List.of(
                java.util.List.of(whole(cached("pod"))), java.util.List.of(whole(cached("statefulset")))), now);
        var fromCompact = observer.observe(primary, java.util.List.of(
                java.util.List.of(CompactResource.of(cached("pod")).orElseThrow().toMap(SERIALIZATION)),
                java.util.List.of(CompactResource.of(cached("statefulset")).orElseThrow().toMap(SERIALIZATION))), now);

        assertThat(fromCompact.secondaries()).hasSize(2);
        assertThat(fromCompact.secondaries()).extracting(r -> r.getObject().toString())
                .containsExactlyElementsOf(fromWhole.secondaries().stream().map(r -> r.getObject().toString()).toList());
    }

    /**
     * What the observe phase reads (KubeApi.toFrozenMap) becomes a fact without a second copy, and no
     * rule can change it, nor the cached object through it: the next cycle reads the same object back.
     */
    @Test
    @SuppressWarnings("unchecked")
    void aCachedObjectBecomesAFactWithoutACopyAndCannotBeChangedThroughIt() {
        CompactResource compact = CompactResource.of(cached("statefulset")).orElseThrow();
        try (var client = new io.fabric8.kubernetes.client.KubernetesClientBuilder()
                .withConfig(new io.fabric8.kubernetes.client.ConfigBuilder().withMasterUrl("https://127.0.0.1:1").build()).build()) {
            KubeApi api = new KubeApi(client);

            Map<String, Object> read = api.toFrozenMap(compact);
            var fact = new dev.runbook.rules.fact.Resource(read);

            assertThat(fact.getObject()).as("the fact holds the maps read, not a copy").isSameAs(read);
            assertThat(fact.getObject().toString())
                    .isEqualTo(new dev.runbook.rules.fact.Resource(whole(cached("statefulset"))).getObject().toString());
            Map<String, Object> spec = fact.map("spec");
            Map<String, Object> managed = (Map<String, Object>) fact.list("metadata.managedFields").get(0);
            assertThatThrownBy(() -> fact.getObject().put("spec", Map.of())).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> spec.put("replicas", 9)).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> fact.map("spec.template.metadata.labels").clear()).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> fact.list("spec.template.spec.containers").remove(0)).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> managed.put("manager", "x")).isInstanceOf(UnsupportedOperationException.class);
            assertThat(api.toMap(compact)).as("the cache reads back as it was").isEqualTo(whole(cached("statefulset")));
            assertThat(api.toFrozenMap(compact)).as("a new object every read").isNotSameAs(read).isEqualTo(read);
        }
    }

    @Test
    void theTypedMetadataLeavesOutTheManagedFieldsWhichReadBackAfterTheLabels() {
        GenericKubernetesResource object = cached("statefulset");
        assertThat(object.getMetadata().getManagedFields()).isNotEmpty();

        CompactResource compact = CompactResource.of(object).orElseThrow();

        assertThat(compact.getMetadata().getManagedFields()).isNullOrEmpty();
        @SuppressWarnings("unchecked")
        var metadata = (Map<String, Object>) compact.toMap(SERIALIZATION).get("metadata");
        assertThat(metadata.keySet()).containsSubsequence("labels", "managedFields", "name");
        assertThat(metadata.get("managedFields")).isEqualTo(((Map<?, ?>) whole(object).get("metadata")).get("managedFields"));
    }

    @Test
    void anObjectWithoutManagedFieldsKeepsItsMetadataAsItIs() {
        GenericKubernetesResource object = cached("configmap");
        object.getMetadata().setManagedFields(null);

        CompactResource compact = CompactResource.of(object).orElseThrow();

        assertThat(compact.getMetadata()).isSameAs(object.getMetadata());
        assertThat(compact.toMap(SERIALIZATION).toString()).isEqualTo(whole(object).toString());
    }

    @Test
    void anObjectWhosePropertiesWouldNotReadBackEqualIsKeptWhole() {
        GenericKubernetesResource object = cached("configmap");
        object.setAdditionalProperty("ratio", 1.5f); // JSON reads a decimal back as a Double
        assertThat(CompactResource.of(object)).isEmpty();
    }

    /**
     * fabric8 reads a watch event of a kind it knows as the typed model and converts that to the generic
     * resource the informer asked for: the model's int64 fields become {@code Long}s, which JSON reads back
     * as {@code Integer}s. Such an object is compact all the same and reads back with its {@code Long}s.
     */
    @ParameterizedTest
    @ValueSource(strings = {"pod", "statefulset"})
    void anObjectAsAWatchEventGivesItIsCompactAndReadsBackWithItsLongs(String name) {
        GenericKubernetesResource object = watched(name);
        Map<String, Object> before = whole(object);
        Object[][] longs = LongLeaves.of(object.getAdditionalProperties());
        assertThat(longs).as("the model's int64 fields").isNotNull();
        assertThat(java.util.Arrays.stream(longs).map(path -> path[path.length - 1])).contains("terminationGracePeriodSeconds");

        CompactResource compact = CompactResource.of(object).orElseThrow();

        assertThat(compact.toMap(SERIALIZATION)).isEqualTo(before);
        assertThat(compact.toMap(SERIALIZATION).toString()).isEqualTo(before.toString());
        assertThat(compact.getAdditionalProperties()).isEqualTo(object.getAdditionalProperties());
        assertThat(LongLeaves.of(compact.getAdditionalProperties())).isDeepEqualTo(longs);
        assertThat(CompactResource.of(object).orElseThrow()).isEqualTo(compact).isNotEqualTo(CompactResource.of(cached(name)).orElseThrow());
    }

    /** A cached object as the informer has it after a watch event (fabric8's typed model, converted). */
    static GenericKubernetesResource watched(String name) {
        try (InputStream in = CompactResourceTest.class.getResourceAsStream("/cached/" + name + ".json")) {
            String event = "{\"type\":\"MODIFIED\",\"object\":" + new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8) + "}";
            Object typed = SERIALIZATION.unmarshal(event, io.fabric8.kubernetes.api.model.WatchEvent.class).getObject();
            assertThat(typed).isNotInstanceOf(GenericKubernetesResource.class);
            return SERIALIZATION.convertValue(typed, GenericKubernetesResource.class);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void isReadOnlyAndHandsOutCopies() {
        CompactResource compact = CompactResource.of(cached("configmap")).orElseThrow();

        compact.getAdditionalProperties().put("data", Map.of("changed", "yes"));

        assertThat(compact.getAdditionalProperties()).isEqualTo(cached("configmap").getAdditionalProperties());
        assertThatThrownBy(() -> compact.setAdditionalProperty("data", Map.of()))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("read-only");
        assertThatThrownBy(() -> compact.setAdditionalProperties(Map.of()))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void equalWhenTheirTextIs() {
        assertThat(CompactResource.of(cached("pod")).orElseThrow()).isEqualTo(CompactResource.of(cached("pod")).orElseThrow())
                .hasSameHashCodeAs(CompactResource.of(cached("pod")).orElseThrow())
                .isNotEqualTo(CompactResource.of(cached("node")).orElseThrow());
    }
}
