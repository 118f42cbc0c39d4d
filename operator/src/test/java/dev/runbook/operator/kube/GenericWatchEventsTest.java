package dev.runbook.operator.kube;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A watch event of a kind fabric8 has a model class for is read generically, as a list of the kind
 * reads its items (the informers of a bundle's secondaries watch generically); what is registered,
 * and a Status, are read as fabric8 reads them. The objects are those a real control plane served
 * during the scale benchmark.
 */
class GenericWatchEventsTest {
    private final GenericWatchEvents serialization = new GenericWatchEvents();

    private static String json(String name) {
        try (InputStream in = GenericWatchEventsTest.class.getResourceAsStream("/cached/" + name + ".json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String event(String type, String object) {
        return "{\"type\":\"" + type + "\",\"object\":" + object + "}";
    }

    @ParameterizedTest
    @ValueSource(strings = {"pod", "statefulset", "service", "configmap", "node"})
    void aShippedKindIsReadAsAListReadsItsItems(String name) {
        WatchEvent event = serialization.unmarshal(event("MODIFIED", json(name)), WatchEvent.class);

        assertThat(event.getType()).isEqualTo("MODIFIED");
        assertThat(event.getObject()).isExactlyInstanceOf(GenericKubernetesResource.class);
        GenericKubernetesResource asListed = new KubernetesSerialization().unmarshal(json(name), GenericKubernetesResource.class);
        assertThat(event.getObject()).isEqualTo(asListed);
        // nested maps in the same key order
        assertThat(event.getObject().toString()).isEqualTo(asListed.toString());
    }

    @Test
    void fabric8AloneReadsItTypedWhichTheInformerThenConvertsBack() {
        // what this class saves: the typed object a generic informer had converted once more
        WatchEvent event = new KubernetesSerialization().unmarshal(event("ADDED", json("pod")), WatchEvent.class);

        assertThat(event.getObject()).isExactlyInstanceOf(Pod.class);
    }

    @Test
    void aRegisteredClassStaysTyped() {
        serialization.registerKubernetesResource(ConfigMap.class);

        WatchEvent event = serialization.unmarshal(event("ADDED", json("configmap")), WatchEvent.class);

        assertThat(event.getObject()).isExactlyInstanceOf(ConfigMap.class);
        assertThat(((ConfigMap) event.getObject()).getMetadata().getName())
                .isEqualTo(new KubernetesSerialization().unmarshal(json("configmap"), ConfigMap.class).getMetadata().getName());
    }

    @Test
    void anErrorEventKeepsItsStatus() {
        String status = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                + "\"message\":\"too old resource version: 1 (2)\",\"reason\":\"Expired\",\"code\":410}";

        WatchEvent event = serialization.unmarshal(event("ERROR", status), WatchEvent.class);

        assertThat(event.getType()).isEqualTo("ERROR");
        assertThat(event.getObject()).isInstanceOfSatisfying(Status.class, s -> assertThat(s.getCode()).isEqualTo(410));
    }

    @Test
    void aBookmarkKeepsItsResourceVersion() {
        String bookmark = "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"12746\","
                + "\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}}}";

        WatchEvent event = serialization.unmarshal(event("BOOKMARK", bookmark), WatchEvent.class);

        assertThat(event.getObject()).isInstanceOfSatisfying(GenericKubernetesResource.class,
                o -> assertThat(o.getMetadata().getResourceVersion()).isEqualTo("12746"));
    }

    @Test
    void anUnknownKindIsGenericAsBefore() {
        String object = "{\"apiVersion\":\"example.dev/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\"},\"spec\":{\"size\":3}}";

        WatchEvent event = serialization.unmarshal(event("ADDED", object), WatchEvent.class);

        assertThat(event.getObject()).isEqualTo(new KubernetesSerialization().unmarshal(object, GenericKubernetesResource.class));
    }

    @Test
    void otherTypesReadAsFabric8ReadsThem() {
        assertThat((Object) serialization.unmarshal(json("pod"), Pod.class)).isExactlyInstanceOf(Pod.class);
    }

    @Test
    void theOperatorsClientReadsWithIt() {
        Config config = new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").build();
        try (KubernetesClient client = Kubeconfig.client(config)) {
            assertThat(client.getKubernetesSerialization()).isInstanceOf(GenericWatchEvents.class);
        }
    }
}
