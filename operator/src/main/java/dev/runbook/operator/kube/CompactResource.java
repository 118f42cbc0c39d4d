package dev.runbook.operator.kube;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A cached object whose fields besides {@code apiVersion}, {@code kind} and {@code metadata} (its
 * spec, status, data...) are kept as their JSON text instead of nested maps. An informer caches
 * every object it watches for the operator's whole life, and as Jackson's nested
 * {@link LinkedHashMap}s and strings an object takes four to five times the bytes of its JSON: at
 * 1000 clusters those maps were most of the operator's live heap. The operator reads a cached object
 * only as a whole (a cycle turns it into facts, the act phase compares with it), once per cycle, so
 * the maps are made when read ({@link #toMap}) and dropped after the cycle. The metadata stays typed:
 * JOSDK and fabric8 read names, labels, owner references and resource versions from it at every event;
 * all but its {@code managedFields}, which only the apply check reads (from {@link #toMap}) and which
 * for an object the operator applies mirror every field it wrote: they are kept as JSON text too.
 *
 * <p>Read-only: the setters of the additional properties refuse. {@link #of} keeps an object as it is
 * (returns empty) unless its properties read back from the JSON text equal to what they were, so
 * that what a cycle sees of a compact object is exactly what it saw of the whole one (the types of
 * numbers included: where the object held a {@code Long} that JSON reads back as an {@code Integer}, as
 * every object a watch event brought does in its int64 fields, the paths of those {@code Long}s are kept
 * beside the text and their type given back on every read, {@link LongLeaves}).
 */
@JsonSerialize(using = CompactResource.Writer.class)
public final class CompactResource extends GenericKubernetesResource {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Makes the typed managedFields entries maps, as the client's serialization does in {@link #toMap}. */
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    /** The metadata fields that come before {@code managedFields} in the metadata's JSON (ObjectMeta's order). */
    private static final Set<String> BEFORE_MANAGED_FIELDS = Set.of("annotations", "creationTimestamp",
            "deletionGracePeriodSeconds", "deletionTimestamp", "finalizers", "generateName", "generation", "labels");

    private final byte[] properties;
    /** Where the properties hold a {@code Long} that JSON reads back as an {@code Integer} ({@link LongLeaves}); null: none. */
    private final Object[][] propertiesLongs;
    /** The metadata's managedFields as JSON text, or null when the metadata keeps its own (none). */
    private final byte[] managedFields;
    private final Object[][] managedFieldsLongs;

    private CompactResource(GenericKubernetesResource object, ObjectMeta metadata, Text properties, Text managedFields) {
        setApiVersion(object.getApiVersion());
        setKind(object.getKind());
        setMetadata(metadata);
        this.properties = properties.json();
        this.propertiesLongs = properties.longs();
        this.managedFields = managedFields == null ? null : managedFields.json();
        this.managedFieldsLongs = managedFields == null ? null : managedFields.longs();
    }

    /** A value as JSON text, with where its {@code Long}s were. */
    private record Text(byte[] json, Object[][] longs) {
        /** {@code value} as text, or null when it would not read back equal, number types included. */
        static Text of(Object value, Class<?> type) throws JsonProcessingException {
            Text text = new Text(JSON.writeValueAsBytes(value), LongLeaves.of(value));
            return text.read(type).equals(value) ? text : null;
        }

        <T> T read(Class<?> type) {
            return LongLeaves.restore(CompactResource.read(json, type), longs);
        }
    }

    /**
     * {@code object} with its additional properties and managedFields as JSON text, or empty when they
     * would not read back equal (a number type JSON does not keep) and the object should be kept as it is.
     */
    public static Optional<CompactResource> of(GenericKubernetesResource object) {
        try {
            Text json = Text.of(object.getAdditionalProperties(), LinkedHashMap.class);
            if (json == null) return Optional.empty();
            ObjectMeta metadata = object.getMetadata();
            if (metadata == null || metadata.getManagedFields() == null || metadata.getManagedFields().isEmpty()) {
                return Optional.of(new CompactResource(object, metadata, json, null));
            }
            Text managed = Text.of(SERIALIZATION.convertValue(metadata.getManagedFields(), List.class), List.class);
            if (managed == null) return Optional.empty();
            ObjectMeta rest = new ObjectMetaBuilder(metadata).withManagedFields((List<ManagedFieldsEntry>) null).build();
            return Optional.of(new CompactResource(object, rest, json, managed));
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }

    /**
     * The whole object as nested maps, equal, key order included, to what the serialization's
     * {@code convertValue} makes of the object it was compacted from.
     */
    @SuppressWarnings("unchecked")
    public Map<String, Object> toMap(KubernetesSerialization serialization) {
        GenericKubernetesResource head = new GenericKubernetesResource();
        head.setApiVersion(getApiVersion());
        head.setKind(getKind());
        head.setMetadata(getMetadata());
        @SuppressWarnings("unchecked")
        Map<String, Object> map = serialization.convertValue(head, LinkedHashMap.class);
        if (managedFields != null) map.put("metadata", withManagedFields((Map<String, Object>) map.get("metadata")));
        map.putAll(new Text(properties, propertiesLongs).read(LinkedHashMap.class));
        return map;
    }

    /** {@code metadata} with the managedFields read back in their place, after labels and before name. */
    private Map<String, Object> withManagedFields(Map<String, Object> metadata) {
        Map<String, Object> whole = new LinkedHashMap<>();
        boolean placed = false;
        for (Map.Entry<String, Object> field : metadata.entrySet()) {
            if (!placed && !BEFORE_MANAGED_FIELDS.contains(field.getKey())) {
                whole.put("managedFields", managedFieldsList());
                placed = true;
            }
            whole.put(field.getKey(), field.getValue());
        }
        if (!placed) whole.put("managedFields", managedFieldsList());
        return whole;
    }

    private List<Object> managedFieldsList() {
        return new Text(managedFields, managedFieldsLongs).read(List.class);
    }

    /** A new map of the properties on every call: changing it changes nothing cached. */
    @Override
    public Map<String, Object> getAdditionalProperties() {
        return new Text(properties, propertiesLongs).read(LinkedHashMap.class);
    }

    @Override
    public void setAdditionalProperties(Map<String, Object> additionalProperties) {
        throw new UnsupportedOperationException("a cached object is read-only: copy it (KubeApi.toMap) to change it");
    }

    @Override
    public void setAdditionalProperty(String name, Object value) {
        throw new UnsupportedOperationException("a cached object is read-only: copy it (KubeApi.toMap) to change it");
    }

    @SuppressWarnings("unchecked")
    private static <T> T read(byte[] json, Class<?> type) {
        try {
            return (T) JSON.readValue(json, type);
        } catch (IOException e) {
            throw new UncheckedIOException("the JSON this class wrote does not read back", e);
        }
    }

    /**
     * Writes a compact object as the whole object it stands for, managedFields included, wherever
     * Jackson meets it (the client's serialization, a log line), not only through {@link #toMap}.
     */
    static final class Writer extends StdSerializer<CompactResource> {
        Writer() {
            super(CompactResource.class);
        }

        @Override
        public void serialize(CompactResource value, JsonGenerator generator, SerializerProvider provider) throws IOException {
            provider.defaultSerializeValue(value.toMap(SERIALIZATION), generator);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CompactResource that && Objects.equals(getApiVersion(), that.getApiVersion())
                && Objects.equals(getKind(), that.getKind()) && Objects.equals(getMetadata(), that.getMetadata())
                && Arrays.equals(properties, that.properties) && Arrays.equals(managedFields, that.managedFields)
                && Arrays.deepEquals(propertiesLongs, that.propertiesLongs) && Arrays.deepEquals(managedFieldsLongs, that.managedFieldsLongs);
    }

    @Override
    public int hashCode() {
        return Objects.hash(getApiVersion(), getKind(), getMetadata(), Arrays.hashCode(properties), Arrays.hashCode(managedFields));
    }
}
