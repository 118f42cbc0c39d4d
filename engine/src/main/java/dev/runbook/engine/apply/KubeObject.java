package dev.runbook.engine.apply;

import dev.runbook.rules.fact.ObjectRef;

import java.util.Map;
import java.util.Set;

/** The identity of a Kubernetes object held as nested maps, and the metadata only a cluster writes. */
public final class KubeObject {
    private KubeObject() {}

    /** Fields of {@code metadata} that the cluster, not the client, decides. */
    public static final Set<String> SERVER_FIELDS = Set.of("uid", "resourceVersion", "generation", "creationTimestamp");

    /**
     * The reference naming a stored or candidate object.
     *
     * @throws IllegalArgumentException when apiVersion, kind or metadata.name is missing
     */
    public static ObjectRef refOf(Map<String, Object> object) {
        Object apiVersion = object.get("apiVersion");
        Object kind = object.get("kind");
        Map<String, Object> metadata = Json.mapAt(object, "metadata");
        String name = Json.stringAt(metadata, "name");
        if (apiVersion == null || apiVersion.toString().isBlank()) {
            throw new IllegalArgumentException("an object needs an apiVersion: " + describe(kind, metadata));
        }
        if (kind == null || kind.toString().isBlank()) {
            throw new IllegalArgumentException("an object needs a kind: " + describe(kind, metadata));
        }
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("an object needs metadata.name: " + describe(kind, metadata));
        }
        return ObjectRef.of(apiVersion.toString(), kind.toString(), Json.stringAt(metadata, "namespace"), name);
    }

    private static String describe(Object kind, Map<String, Object> metadata) {
        return (kind == null ? "(no kind)" : kind) + " " + (metadata == null ? "(no metadata)" : metadata);
    }
}
