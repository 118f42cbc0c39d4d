package dev.runbook.rules.fact;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Names one Kubernetes object: apiVersion, kind, namespace (empty for cluster-scoped kinds) and name.
 * Actions target objects by reference, so a plan can be printed, compared and applied without the objects.
 */
public final class ObjectRef implements Comparable<ObjectRef> {
    private static final java.util.regex.Pattern NAMESPACE = java.util.regex.Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private final String apiVersion;
    private final String kind;
    private final String namespace;
    private final String name;

    public ObjectRef(String apiVersion, String kind, String namespace, String name) {
        this.apiVersion = apiVersion == null ? "" : apiVersion;
        this.kind = require(kind, "kind");
        this.namespace = namespace == null ? "" : namespace;
        if (!this.namespace.isEmpty() && !NAMESPACE.matcher(this.namespace).matches()) {
            throw new IllegalArgumentException("metadata.namespace: '" + namespace + "' is not a namespace name "
                    + "(lower-case letters, digits and '-', at most 63)");
        }
        this.name = require(name, "name");
    }

    public static ObjectRef of(String apiVersion, String kind, String namespace, String name) {
        return new ObjectRef(apiVersion, kind, namespace, name);
    }

    private static String require(String value, String field) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("an object reference needs a " + field);
        }
        return value;
    }

    public String getApiVersion() { return apiVersion; }
    public String getKind() { return kind; }
    public String getNamespace() { return namespace; }
    public String getName() { return name; }

    /** The same object in another namespace-less form: used to name objects in messages. */
    @Override
    public String toString() {
        return kind + " " + (namespace.isEmpty() ? name : namespace + "/" + name);
    }

    /** The YAML form used by plans and scenario files. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("apiVersion", apiVersion);
        map.put("kind", kind);
        if (!namespace.isEmpty()) {
            map.put("namespace", namespace);
        }
        map.put("name", name);
        return map;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof ObjectRef other)) return false;
        return apiVersion.equals(other.apiVersion) && kind.equals(other.kind)
                && namespace.equals(other.namespace) && name.equals(other.name);
    }

    @Override
    public int hashCode() {
        return Objects.hash(apiVersion, kind, namespace, name);
    }

    @Override
    public int compareTo(ObjectRef o) {
        int byKind = kind.compareTo(o.kind);
        if (byKind != 0) return byKind;
        int byNamespace = namespace.compareTo(o.namespace);
        if (byNamespace != 0) return byNamespace;
        int byName = name.compareTo(o.name);
        return byName != 0 ? byName : apiVersion.compareTo(o.apiVersion);
    }
}
