package dev.runbook.operator.observe;

import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.engine.bundle.SecondaryKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;

import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Which primaries an object of a secondary kind belongs to, by the kind's {@code owner} or {@code labels}
 * mapping of {@code bundle.yaml}: the one function both the controller's informers and a one-shot read
 * ({@link ListedSecondaries}) map objects with, so that both see the same objects for a primary.
 */
public final class SecondaryMappers {
    private SecondaryMappers() {}

    /**
     * @param primariesIn the primaries of a namespace, for a label selector that names none (its objects
     *                    belong to every primary of their namespace)
     */
    public static SecondaryToPrimaryMapper<GenericKubernetesResource> of(PrimaryKind primaryKind, SecondaryKind kind,
                                                                 Function<String, Stream<ResourceID>> primariesIn) {
        if (kind.mapping() == SecondaryKind.Mapping.OWNER) {
            return Mappers.fromOwnerReferences(primaryKind.kind().apiVersion(), primaryKind.kind().kind(), !primaryKind.namespaced());
        }
        LabelMapping labels = new LabelMapping(kind.selector());
        if (labels.namesThePrimary()) {
            return object -> labels.primaryName(object.getMetadata().getLabels())
                    .map(name -> Set.of(new ResourceID(name, primaryKind.namespaced() ? object.getMetadata().getNamespace() : null)))
                    .orElse(Set.of());
        }
        // No value names the primary: the object belongs to every primary of its namespace.
        return object -> !labels.matchesConstants(object.getMetadata().getLabels()) ? Set.of()
                : primariesIn.apply(object.getMetadata().getNamespace()).collect(Collectors.toSet());
    }
}
