package dev.runbook.operator.kube;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A cached object whose fields besides {@code apiVersion}, {@code kind} and {@code metadata} (its
 * spec, status, data...) are kept as their JSON text instead of nested maps. An informer caches
 * every object it watches for the operator's whole life, and as Jackson's nested
 * {@link LinkedHashMap}s and strings an object takes four to five times the bytes of its JSON: at
 * 1000 clusters those maps were most of the operator's live heap. The operator reads a cached object
 * only as a whole (a cycle turns it into facts, the act phase compares with it), once per cycle, so
 * the maps are made when read ({@link #toMap}) and dropped after the cycle. The metadata stays typed:
 * JOSDK and fabric8 read names, labels, owner references and resource versions from it at every event.
 *
 * <p>Read-only: the setters of the additional properties refuse. {@link #of} keeps an object as it is
 * (returns empty) unless its properties read back from the JSON text equal to what they were, so
 * that what a cycle sees of a compact object is exactly what it saw of the whole one (the types of
 * numbers included).
 */
public final class CompactResource extends GenericKubernetesResource {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final byte[] properties;

    private CompactResource(GenericKubernetesResource object, byte[] properties) {
        setApiVersion(object.getApiVersion());
        setKind(object.getKind());
        setMetadata(object.getMetadata());
        this.properties = properties;
    }

    /**
     * {@code object} with its additional properties as JSON text, or empty when they would not read
     * back equal (a number type JSON does not keep) and the object should be kept as it is.
     */
    public static Optional<CompactResource> of(GenericKubernetesResource object) {
        Map<String, Object> properties = object.getAdditionalProperties();
        try {
            byte[] json = JSON.writeValueAsBytes(properties);
            if (!read(json).equals(properties)) return Optional.empty();
            return Optional.of(new CompactResource(object, json));
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }

    /**
     * The whole object as nested maps, equal, key order included, to what the serialization's
     * {@code convertValue} makes of the object it was compacted from.
     */
    public Map<String, Object> toMap(KubernetesSerialization serialization) {
        GenericKubernetesResource head = new GenericKubernetesResource();
        head.setApiVersion(getApiVersion());
        head.setKind(getKind());
        head.setMetadata(getMetadata());
        @SuppressWarnings("unchecked")
        Map<String, Object> map = serialization.convertValue(head, LinkedHashMap.class);
        map.putAll(read(properties));
        return map;
    }

    /** A new map of the properties on every call: changing it changes nothing cached. */
    @Override
    public Map<String, Object> getAdditionalProperties() {
        return read(properties);
    }

    @Override
    public void setAdditionalProperties(Map<String, Object> additionalProperties) {
        throw new UnsupportedOperationException("a cached object is read-only: copy it (KubeApi.toMap) to change it");
    }

    @Override
    public void setAdditionalProperty(String name, Object value) {
        throw new UnsupportedOperationException("a cached object is read-only: copy it (KubeApi.toMap) to change it");
    }

    /** The size of the properties' JSON text, in bytes (what this object keeps besides its metadata). */
    int propertiesBytes() {
        return properties.length;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> read(byte[] json) {
        try {
            return JSON.readValue(json, LinkedHashMap.class);
        } catch (IOException e) {
            throw new UncheckedIOException("the JSON this class wrote does not read back", e);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CompactResource that && Objects.equals(getApiVersion(), that.getApiVersion())
                && Objects.equals(getKind(), that.getKind()) && Objects.equals(getMetadata(), that.getMetadata())
                && Arrays.equals(properties, that.properties);
    }

    @Override
    public int hashCode() {
        return Objects.hash(getApiVersion(), getKind(), getMetadata(), Arrays.hashCode(properties));
    }
}
