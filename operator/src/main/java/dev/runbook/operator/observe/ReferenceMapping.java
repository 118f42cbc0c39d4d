package dev.runbook.operator.observe;

import dev.runbook.engine.bundle.SecondaryKind;
import dev.runbook.rules.fact.ObjectPath;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A {@code reference} mapping of {@code bundle.yaml}: objects of the referenced kind (Nodes) belong to
 * the primaries whose referring objects (their Pods) name them in a field ({@code spec.nodeName}).
 *
 * <p>Both directions go through the referring kind's informer cache, never the API server: an index
 * of the referring objects by the name they hold finds, for an event on a Node, the Pods on it and so
 * their primaries; a cycle looks up the Nodes its Pods name in the Node informer's cache.
 */
public final class ReferenceMapping {
    private final SecondaryKind.Reference reference;
    private final String index;
    /** Whether the field is one of the object's own (spec, status...), outside apiVersion, kind and metadata. */
    private final boolean outsideMetadata;

    public ReferenceMapping(SecondaryKind kind) {
        if (kind.reference() == null) throw new IllegalArgumentException(kind.kind() + " is not mapped by reference");
        this.reference = kind.reference();
        this.index = "runbook-reference-" + reference.by() + "-" + reference.field();
        String top = reference.field().split("\\.", 2)[0];
        this.outsideMetadata = !top.equals("metadata") && !top.equals("apiVersion") && !top.equals("kind");
    }

    /** The key an object is indexed and looked up by: its name, or namespace/name for a namespaced kind. */
    private String key(String namespace, String name) {
        return reference.clusterScoped() ? name : namespace + "/" + name;
    }

    /** The name the referring object holds in the reference's field, or null when it holds none (a pod not yet scheduled). */
    String referencedName(Map<String, Object> referring) {
        Object value = ObjectPath.read(referring, reference.field());
        return value == null || String.valueOf(value).isEmpty() ? null : String.valueOf(value);
    }

    /** Adds to the referring kind's informer an index by the referenced name; before it starts. */
    public void indexReferring(InformerEventSource<GenericKubernetesResource, ?> referring,
                        Function<GenericKubernetesResource, Map<String, Object>> toMap) {
        referring.addIndexers(Map.of(index, object -> indexKeys(object, toMap)));
    }

    /**
     * The index keys of one referring object. The informer indexes every object of every event (each
     * update of each Pod), so a field outside the metadata ({@code spec.nodeName}) is read from the
     * object's own fields, without turning the whole object into maps ({@code toMap}).
     */
    List<String> indexKeys(GenericKubernetesResource object, Function<GenericKubernetesResource, Map<String, Object>> toMap) {
        String name = referencedName(outsideMetadata ? object.getAdditionalProperties() : toMap.apply(object));
        return name == null ? List.of() : List.of(key(object.getMetadata().getNamespace(), name));
    }

    /**
     * From an event on a referenced object to the primaries of the referring objects that name it,
     * each mapped to its primaries as the referring kind maps it.
     */
    public SecondaryToPrimaryMapper<GenericKubernetesResource> mapper(InformerEventSource<GenericKubernetesResource, ?> referring,
                                                             SecondaryToPrimaryMapper<GenericKubernetesResource> referringToPrimary) {
        return referenced -> {
            Set<ResourceID> primaries = new LinkedHashSet<>();
            for (GenericKubernetesResource object : referring.byIndex(index, key(referenced)))  {
                primaries.addAll(referringToPrimary.toPrimaryResourceIDs(object));
            }
            return primaries;
        };
    }

    private String key(HasMetadata referenced) {
        return reference.clusterScoped() ? referenced.getMetadata().getName()
                : key(referenced.getMetadata().getNamespace(), referenced.getMetadata().getName());
    }

    /**
     * The cached objects that a primary's referring objects name, in name order and each once.
     *
     * @param referring the primary's referring objects, as the cycle observes them
     * @param lookup    the referenced kind's informer cache
     */
    List<GenericKubernetesResource> referencedBy(List<Map<String, Object>> referring,
                                                 Function<ResourceID, java.util.Optional<GenericKubernetesResource>> lookup) {
        Set<ResourceID> ids = new LinkedHashSet<>();
        for (Map<String, Object> object : referring) {
            String name = referencedName(object);
            if (name == null) continue;
            String namespace = reference.clusterScoped() ? null : (String) ObjectPath.read(object, "metadata.namespace");
            ids.add(new ResourceID(name, namespace));
        }
        return ids.stream().map(lookup).flatMap(java.util.Optional::stream)
                .sorted(java.util.Comparator.comparing(o -> o.getMetadata().getName()))
                .collect(Collectors.toList());
    }
}
