package dev.runbook.rules.fact;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Names one Kubernetes object: apiVersion, kind, namespace (empty for cluster-scoped kinds) and name.
 * Actions target objects by reference, so a plan can be printed, compared and applied without the objects.
 */
public final class ObjectRef implements Comparable<ObjectRef> {
    private final String apiVersion;
    private final String kind;
    private final String namespace;
    private final String name;
    private int hash;
    private Map<String, Object> form;

    public ObjectRef(String apiVersion, String kind, String namespace, String name) {
        this.apiVersion = apiVersion == null ? "" : apiVersion;
        this.kind = require(kind, "kind");
        this.namespace = namespace == null ? "" : namespace;
        if (!this.namespace.isEmpty() && !isNamespaceName(this.namespace)) {
            throw new IllegalArgumentException("metadata.namespace: '" + namespace + "' is not a namespace name "
                    + "(lower-case letters, digits and '-', at most 63)");
        }
        this.name = require(name, "name");
    }

    /**
     * Whether the text is a namespace name ({@code [a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?}), checked by hand: every action a
     * rule builds makes a reference, so the check runs thousands of times a second in a busy operator.
     */
    static boolean isNamespaceName(String text) {
        int length = text.length();
        if (length == 0 || length > 63) return false;
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            boolean alphanumeric = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
            if (!alphanumeric && (c != '-' || i == 0 || i == length - 1)) return false;
        }
        return true;
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

    /** The YAML form used by plans and scenario files; unmodifiable. */
    public Map<String, Object> toMap() {
        // Built once and unmodifiable: every action's form holds its target's, and a cycle's status
        // actions share one reference to the primary. Racy but benign, as the hash above.
        Map<String, Object> form = this.form;
        if (form == null) {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("apiVersion", apiVersion);
            map.put("kind", kind);
            if (!namespace.isEmpty()) {
                map.put("namespace", namespace);
            }
            map.put("name", name);
            form = Values.frozenOwned(map);
            this.form = form;
        }
        return form;
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
        // Computed once (the fields are final): references are map keys all through a cycle.
        int hash = this.hash;
        if (hash == 0) {
            hash = Objects.hash(apiVersion, kind, namespace, name);
            this.hash = hash;
        }
        return hash;
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
