package dev.runbook.operator.act;

import dev.runbook.operator.kube.CompactResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server-side apply check decides the same on a compact cached object as on the whole one. The
 * objects are as the scale benchmark's control plane served them; the desired object is the cached
 * one cut down to the fields the operator's own managedFields entry owns (what its apply wrote).
 */
class CompactApplyCheckTest {
    private static final String MANAGER = "runbook-postgres-cluster";
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private static GenericKubernetesResource cached(String name) {
        try (InputStream in = CompactApplyCheckTest.class.getResourceAsStream("/cached/" + name + ".json")) {
            return SERIALIZATION.unmarshal(in, GenericKubernetesResource.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> whole(GenericKubernetesResource object) {
        return SERIALIZATION.convertValue(object, LinkedHashMap.class);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> ownFields(Map<String, Object> object) {
        for (Object entry : (List<Object>) ((Map<String, Object>) object.get("metadata")).get("managedFields")) {
            Map<String, Object> e = (Map<String, Object>) entry;
            if (MANAGER.equals(e.get("manager")) && "Apply".equals(e.get("operation"))) return (Map<String, Object>) e.get("fieldsV1");
        }
        throw new AssertionError("no apply entry of " + MANAGER);
    }

    /** {@code object} cut down to the fields {@code fields} (a fieldsV1 tree) names, lists whole. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> project(Map<String, Object> object, Map<String, Object> fields) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> field : fields.entrySet()) {
            if (!field.getKey().startsWith("f:")) continue;
            String key = field.getKey().substring(2);
            Object value = object.get(key);
            Map<String, Object> below = (Map<String, Object>) field.getValue();
            boolean leaf = below.keySet().stream().noneMatch(k -> k.startsWith("f:"));
            out.put(key, leaf || !(value instanceof Map) ? value : project((Map<String, Object>) value, below));
        }
        return out;
    }

    static Map<String, Object> desired(Map<String, Object> cached) {
        Map<String, Object> desired = project(cached, ownFields(cached));
        desired.put("apiVersion", cached.get("apiVersion"));
        desired.put("kind", cached.get("kind"));
        @SuppressWarnings("unchecked")
        Map<String, Object> metadata = new LinkedHashMap<>((Map<String, Object>) desired.getOrDefault("metadata", Map.of()));
        @SuppressWarnings("unchecked")
        Map<String, Object> cachedMetadata = (Map<String, Object>) cached.get("metadata");
        metadata.put("name", cachedMetadata.get("name"));
        metadata.put("namespace", cachedMetadata.get("namespace"));
        desired.put("metadata", metadata);
        return desired;
    }

    @ParameterizedTest
    @ValueSource(strings = {"statefulset", "service", "configmap"})
    void decidesTheSameOnACompactObjectAsOnTheWholeOne(String name) {
        Map<String, Object> whole = whole(cached(name));
        Map<String, Object> compact = CompactResource.of(cached(name)).orElseThrow().toMap(SERIALIZATION);
        Map<String, Object> same = desired(whole);
        Map<String, Object> changed = desired(whole);
        @SuppressWarnings("unchecked")
        Map<String, Object> metadata = new LinkedHashMap<>((Map<String, Object>) changed.get("metadata"));
        metadata.put("labels", Map.of("changed", "yes"));
        changed.put("metadata", metadata);

        assertThat(ServerSideApplyCheck.changesNothing(same, whole, MANAGER)).isTrue();
        assertThat(ServerSideApplyCheck.changesNothing(same, compact, MANAGER)).isTrue();
        assertThat(ServerSideApplyCheck.changesNothing(changed, whole, MANAGER)).isFalse();
        assertThat(ServerSideApplyCheck.changesNothing(changed, compact, MANAGER)).isFalse();
    }
}
