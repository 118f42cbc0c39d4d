package dev.runbook.rules.fact;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * One observed Kubernetes object of any kind, as rules see it. Immutable: rules read it, never
 * change it (a change would be invisible to the cluster and would re-trigger the rules).
 *
 * <p>Spec, status and any other field are read by path with typed getters and defaults, so that a
 * rule says {@code integer("spec.instances", 1)} instead of walking maps.
 */
public class Resource {
    private final Map<String, Object> object;
    private final ObjectRef ref;
    private final String uid;
    private final long generation;
    private final String resourceVersion;
    private final Map<String, String> labels;
    private final Map<String, String> annotations;
    private final List<OwnerRef> owners;
    private final Instant creationTimestamp;
    private final Instant deletionTimestamp;
    private final List<Condition> conditions;

    /**
     * @param object a Kubernetes object as nested maps (as parsed from YAML or JSON); it is copied
     * @throws IllegalArgumentException naming the field when kind or metadata.name is missing
     *         or a metadata field has the wrong type
     */
    public Resource(Map<String, ?> object) {
        if (object == null) {
            throw new IllegalArgumentException("an object is required");
        }
        this.object = Values.frozen(toStringKeys(object));
        String kind = Values.scalarString(this.object.get("kind"), "kind");
        String name = Values.scalarString(ObjectPath.read(this.object, "metadata.name"), "metadata.name");
        if (kind == null || kind.isBlank()) {
            throw new IllegalArgumentException("kind: missing: every object needs apiVersion, kind and metadata.name");
        }
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("metadata.name: missing on a " + kind + ": every object needs a name");
        }
        this.ref = new ObjectRef(Values.scalarString(this.object.get("apiVersion"), "apiVersion"), kind,
                Values.scalarString(ObjectPath.read(this.object, "metadata.namespace"), "metadata.namespace"), name);
        this.uid = orEmpty(Values.asString(ObjectPath.read(this.object, "metadata.uid")));
        Long gen = Values.asLong(ObjectPath.read(this.object, "metadata.generation"), "metadata.generation");
        this.generation = gen == null ? 0 : gen;
        this.resourceVersion = orEmpty(Values.asString(ObjectPath.read(this.object, "metadata.resourceVersion")));
        this.labels = stringMap(ObjectPath.read(this.object, "metadata.labels"), "metadata.labels");
        this.annotations = stringMap(ObjectPath.read(this.object, "metadata.annotations"), "metadata.annotations");
        this.owners = owners(ObjectPath.read(this.object, "metadata.ownerReferences"));
        this.creationTimestamp = Values.asInstant(ObjectPath.read(this.object, "metadata.creationTimestamp"),
                "metadata.creationTimestamp");
        this.deletionTimestamp = Values.asInstant(ObjectPath.read(this.object, "metadata.deletionTimestamp"),
                "metadata.deletionTimestamp");
        this.conditions = conditions(ObjectPath.read(this.object, "status.conditions"));
    }

    private static Map<String, Object> toStringKeys(Map<String, ?> object) {
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) object;
        return map;
    }

    private static String orEmpty(String s) { return s == null ? "" : s; }

    private static Map<String, String> stringMap(Object value, String field) {
        if (value == null) return Map.of();
        if (!(value instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(field + ": expected a map of strings, got " + value);
        }
        Map<String, String> result = new java.util.LinkedHashMap<>();
        map.forEach((k, v) -> result.put(String.valueOf(k), v == null ? "" : Values.asString(v)));
        return Collections.unmodifiableMap(result);
    }

    private static List<OwnerRef> owners(Object value) {
        if (!(value instanceof List<?> list)) return List.of();
        List<OwnerRef> result = new ArrayList<>();
        for (Object entry : list) {
            if (entry instanceof Map<?, ?> map) result.add(OwnerRef.fromMap(map));
        }
        return List.copyOf(result);
    }

    private static List<Condition> conditions(Object value) {
        if (!(value instanceof List<?> list)) return List.of();
        List<Condition> result = new ArrayList<>();
        for (Object entry : list) {
            if (entry instanceof Map<?, ?> map && map.get("type") != null) result.add(Condition.fromMap(map));
        }
        return List.copyOf(result);
    }

    // ---- identity and metadata --------------------------------------------------------------

    /** True only for the custom resource the cycle reconciles; see {@link Primary}. */
    public boolean isPrimary() { return false; }

    public ObjectRef getRef() { return ref; }
    public String getApiVersion() { return ref.getApiVersion(); }
    public String getKind() { return ref.getKind(); }
    public String getName() { return ref.getName(); }
    public String getNamespace() { return ref.getNamespace(); }
    public String getUid() { return uid; }
    public long getGeneration() { return generation; }
    public String getResourceVersion() { return resourceVersion; }
    public Map<String, String> getLabels() { return labels; }
    public Map<String, String> getAnnotations() { return annotations; }
    public List<OwnerRef> getOwners() { return owners; }
    public Instant getCreationTimestamp() { return creationTimestamp; }
    public Instant getDeletionTimestamp() { return deletionTimestamp; }
    public boolean isDeleting() { return deletionTimestamp != null; }
    public List<Condition> getConditions() { return conditions; }
    /** The whole object as unmodifiable nested maps. */
    public Map<String, Object> getObject() { return object; }

    public String label(String key) { return labels.get(key); }
    public boolean hasLabel(String key, String value) { return value != null && value.equals(labels.get(key)); }
    public String annotation(String key) { return annotations.get(key); }
    public boolean hasAnnotation(String key) { return annotations.containsKey(key); }

    /** An annotation holding a whole number (annotations are strings), or the default when absent. */
    public long annotationLong(String key, long defaultValue) {
        Long value = Values.asLong(annotations.get(key), "metadata.annotations." + key);
        return value == null ? defaultValue : value;
    }

    /**
     * Whether {@code owner} is listed in this object's owner references: by uid when both have one,
     * else by kind and name (state files written by hand often carry no uids).
     */
    public boolean isOwnedBy(Resource owner) {
        for (OwnerRef ref : owners) {
            boolean byUid = !owner.uid.isEmpty() && ref.uid() != null && !ref.uid().isEmpty();
            if (byUid ? owner.uid.equals(ref.uid())
                    : owner.getKind().equals(ref.kind()) && owner.getName().equals(ref.name())) {
                return true;
            }
        }
        return false;
    }

    // ---- fields by path ---------------------------------------------------------------------

    /** The value at a dotted path such as {@code spec.backup.schedule}, or null. */
    public Object get(String path) { return ObjectPath.read(object, path); }

    public boolean has(String path) { return get(path) != null; }

    public String str(String path) { return Values.asString(get(path)); }

    public String str(String path, String defaultValue) {
        String value = str(path);
        return value == null ? defaultValue : value;
    }

    public int integer(String path, int defaultValue) {
        Long value = Values.asLong(get(path), path);
        return value == null ? defaultValue : Values.toInt(value, path);
    }

    public long longValue(String path, long defaultValue) {
        Long value = Values.asLong(get(path), path);
        return value == null ? defaultValue : value;
    }

    public double number(String path, double defaultValue) {
        Double value = Values.asDouble(get(path), path);
        return value == null ? defaultValue : value;
    }

    public boolean bool(String path, boolean defaultValue) {
        Boolean value = Values.asBoolean(get(path), path);
        return value == null ? defaultValue : value;
    }

    /** A duration field written as "30s", "5m", "1h30m"; the default uses the same notation. */
    public Duration duration(String path, String defaultValue) {
        Duration value = Values.asDuration(get(path), path);
        return value == null ? Values.asDuration(defaultValue, path + " (default)") : value;
    }

    /** The same as {@link #duration} in whole seconds, which compare easily in DRL. */
    public long seconds(String path, String defaultValue) {
        return duration(path, defaultValue).getSeconds();
    }

    /** A timestamp field (RFC 3339), or null. */
    public Instant time(String path) { return Values.asInstant(get(path), path); }

    public Map<String, Object> map(String path) {
        Object value = get(path);
        if (value == null) return Map.of();
        if (value instanceof Map<?, ?> map) {
            @SuppressWarnings("unchecked")
            Map<String, Object> typed = (Map<String, Object>) map;
            return typed;
        }
        throw new IllegalArgumentException(path + ": expected a map, got " + value);
    }

    public List<Object> list(String path) {
        Object value = get(path);
        if (value == null) return List.of();
        if (value instanceof List<?> list) {
            @SuppressWarnings("unchecked")
            List<Object> typed = (List<Object>) list;
            return typed;
        }
        throw new IllegalArgumentException(path + ": expected a list, got " + value);
    }

    // ---- conditions, readiness and age ------------------------------------------------------

    /** The condition of this type in {@code status.conditions}, or null. */
    public Condition condition(String type) {
        for (Condition c : conditions) {
            if (type.equals(c.getType())) return c;
        }
        return null;
    }

    /** "True", "False", "Unknown", or null when the object has no such condition. */
    public String conditionStatus(String type) {
        Condition c = condition(type);
        return c == null ? null : c.getStatus();
    }

    /** The reason of the condition of this type, or null when the object has no such condition. */
    public String conditionReason(String type) {
        Condition c = condition(type);
        return c == null ? null : c.getReason();
    }

    public boolean isConditionTrue(String type) {
        Condition c = condition(type);
        return c != null && c.isTrue();
    }

    /**
     * Whether the object is ready: a Pod whose Ready condition is True and that is not being
     * deleted; a workload with {@code status.readyReplicas >= spec.replicas}; anything else with a
     * Ready condition that is True.
     */
    public boolean isReady() {
        if (isDeleting()) return false;
        if ("Pod".equals(getKind())) return isConditionTrue("Ready");
        if (has("status.readyReplicas") || has("spec.replicas")) {
            return longValue("status.readyReplicas", 0) >= longValue("spec.replicas", 1);
        }
        return isConditionTrue("Ready");
    }

    /** A Job or any object whose Complete condition is True, or with {@code status.succeeded > 0}. */
    public boolean isComplete() {
        return isConditionTrue("Complete") || longValue("status.succeeded", 0) > 0;
    }

    /** A Job or any object whose Failed condition is True. */
    public boolean isFailed() { return isConditionTrue("Failed"); }

    /** Time since creation; zero when the object does not say when it was created. */
    public Duration age(Clock clock) {
        return creationTimestamp == null ? Duration.ZERO : clock.since(creationTimestamp);
    }

    public long ageSeconds(Clock clock) { return age(clock).getSeconds(); }

    /**
     * Seconds since the condition of this type last changed status. When the condition has no
     * transition time the object's age stands in; with neither, 0. Without the condition at all, -1.
     */
    public long secondsSinceTransition(String type, Clock clock) {
        Condition c = condition(type);
        if (c == null) return -1;
        Instant since = c.getLastTransitionTime() != null ? c.getLastTransitionTime() : creationTimestamp;
        return since == null ? 0 : clock.since(since).getSeconds();
    }

    @Override
    public String toString() { return ref.toString(); }
}
