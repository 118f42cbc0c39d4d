package dev.runbook.operator.testkit;

import dev.runbook.apiserver.ApplyShimDispatcher;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the shim makes the mock server do, checked through the fabric8 client as the operator uses it. */
@RunbookIT(crds = "src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml")
class ApplyShimDispatcherTest {
    static TestCluster cluster;
    static KubernetesClient client;

    static ConfigMap config(String name, Map<String, String> data) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().withData(data).build();
    }

    @Test
    void mergeFollowsRfc7386() {
        var target = Serialization.unmarshal("{\"a\":\"b\",\"c\":{\"d\":\"e\",\"f\":\"g\"},\"l\":[1,2]}", com.fasterxml.jackson.databind.JsonNode.class);
        var patch = Serialization.unmarshal("{\"a\":\"z\",\"c\":{\"f\":null},\"l\":[3]}", com.fasterxml.jackson.databind.JsonNode.class);
        assertThat(ApplyShimDispatcher.merge(target, patch).toString()).isEqualTo("{\"a\":\"z\",\"c\":{\"d\":\"e\"},\"l\":[3]}");
    }

    @Test
    void serverSideApplyCreatesThenMergesAndMovesTheVersionOnlyOnChange() {
        String ns = cluster.newNamespace("shim");
        var configMaps = client.configMaps().inNamespace(ns);
        ConfigMap created = configMaps.resource(config("a", Map.of("x", "1"))).fieldManager("m").forceConflicts().serverSideApply();
        assertThat(created.getMetadata().getUid()).isNotEmpty();

        configMaps.withName("a").edit(c -> new ConfigMapBuilder(c).addToData("other", "kept").build());
        String version = configMaps.withName("a").get().getMetadata().getResourceVersion();
        ConfigMap same = configMaps.resource(config("a", Map.of("x", "1"))).fieldManager("m").forceConflicts().serverSideApply();
        assertThat(same.getMetadata().getResourceVersion()).isEqualTo(version);
        assertThat(same.getData()).containsEntry("other", "kept");

        ConfigMap changed = configMaps.resource(config("a", Map.of("x", "2"))).fieldManager("m").forceConflicts().serverSideApply();
        assertThat(changed.getData()).containsEntry("x", "2").containsEntry("other", "kept");
        assertThat(changed.getMetadata().getResourceVersion()).isNotEqualTo(version);
    }

    @Test
    void serverSideApplyRecordsTheFieldsItsManagerAppliedAsARealServerDoes() throws Exception {
        String ns = cluster.newNamespace("shim");
        var configMaps = client.configMaps().inNamespace(ns);
        ConfigMap labelled = new ConfigMapBuilder(config("a", Map.of("x", "1"))).editMetadata().addToLabels("app", "shop").endMetadata().build();
        ConfigMap created = configMaps.resource(labelled).fieldManager("m").forceConflicts().serverSideApply();

        assertThat(created.getMetadata().getManagedFields()).singleElement().satisfies(entry -> {
            assertThat(entry.getManager()).isEqualTo("m");
            assertThat(entry.getOperation()).isEqualTo("Apply");
            assertThat(entry.getFieldsType()).isEqualTo("FieldsV1");
            // A field set: the order of its keys means nothing (it follows the applied JSON's).
            assertThat((Object) Serialization.jsonMapper().valueToTree(entry.getFieldsV1()))
                    .isEqualTo(Serialization.jsonMapper().readTree("{\"f:metadata\":{\"f:labels\":{\"f:app\":{}}},\"f:data\":{\"f:x\":{}}}"));
        });

        // Another manager's apply gets its own entry; the first one's stays, and applying the same
        // fields again changes nothing, not even the resourceVersion.
        configMaps.resource(new ConfigMapBuilder().withNewMetadata().withName("a").endMetadata().addToData("y", "2").build())
                .fieldManager("other").forceConflicts().serverSideApply();
        String version = configMaps.withName("a").get().getMetadata().getResourceVersion();
        ConfigMap again = configMaps.resource(labelled).fieldManager("m").forceConflicts().serverSideApply();
        assertThat(again.getMetadata().getResourceVersion()).isEqualTo(version);
        assertThat(again.getMetadata().getManagedFields()).extracting(e -> e.getManager()).containsExactlyInAnyOrder("m", "other");
    }

    @Test
    void aMergePatchReplacesListsRemovesNullsAndChecksTheVersionItCarries() {
        String ns = cluster.newNamespace("shim");
        var configMaps = client.configMaps().inNamespace(ns);
        configMaps.resource(new ConfigMapBuilder().withNewMetadata().withName("a").addToLabels("k", "v").addToLabels("keep", "1")
                .addToFinalizers("x/one", "x/two").endMetadata().build()).create();

        ConfigMap patched = configMaps.withName("a").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"labels\":{\"k\":null},\"finalizers\":[\"x/three\"]}}");
        assertThat(patched.getMetadata().getLabels()).isEqualTo(Map.of("keep", "1"));
        assertThat(patched.getMetadata().getFinalizers()).containsExactly("x/three");

        assertThatThrownBy(() -> configMaps.withName("a").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"resourceVersion\":\"1\",\"labels\":{\"k\":\"again\"}}}"))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
    }

    @Test
    void aStatusPatchWithAFieldManagerStaysAStatusPatch() {
        String ns = cluster.newNamespace("shim");
        var apps = client.genericKubernetesResources("test.runbook.dev/v1", "WebApp").inNamespace(ns);
        apps.resource(Serialization.unmarshal("{\"apiVersion\":\"test.runbook.dev/v1\",\"kind\":\"WebApp\","
                + "\"metadata\":{\"name\":\"shop\"},\"spec\":{\"greeting\":\"hi\"}}", GenericKubernetesResource.class)).create();

        GenericKubernetesResource after = apps.withName("shop").subresource("status").patch(
                new PatchContext.Builder().withPatchType(PatchType.JSON_MERGE).withFieldManager("m").build(),
                "{\"status\":{\"phase\":\"Serving\"},\"spec\":{\"greeting\":\"ignored\"}}");

        assertThat(after.<String>get("status", "phase")).isEqualTo("Serving");
        assertThat(after.<String>get("spec", "greeting")).isEqualTo("hi");
        assertThat(after.getMetadata().getGeneration()).isEqualTo(1L);
    }
}
