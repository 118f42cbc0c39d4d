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
     * Whether every object of {@code kind} belongs to one primary at most, in that primary's namespace: a
     * namespaced kind of a namespaced primary mapped by owner reference, or by labels that name the primary.
     * Only such a kind can carry its primary's shard label and be watched through it (docs/sharding.md#secondaries);
     * a kind shared by primaries (labels naming none, or a referenced kind such as Node) is watched whole.
     */
    public static boolean followsOnePrimary(PrimaryKind primaryKind, SecondaryKind kind) {
        if (!primaryKind.namespaced() || kind.clusterScoped()) return false;
        return kind.mapping() == SecondaryKind.Mapping.OWNER
                || (kind.mapping() == SecondaryKind.Mapping.LABELS && new LabelMapping(kind.selector()).namesThePrimary());
    }

    /**
     * The label selector objects of {@code kind} are watched or listed with: the kind's own (for a labels
     * mapping) and, for a kind that follows one primary, {@code shardSelector} ANDed to it. Null for none.
     *
     * @param shardSelector the shard member's selector ({@code runbook.dev/shard=MEMBER}), or null when not sharded
     */
    public static String selector(PrimaryKind primaryKind, SecondaryKind kind, String shardSelector) {
        String own = kind.mapping() == SecondaryKind.Mapping.LABELS ? new LabelMapping(kind.selector()).informerSelector() : null;
        if (shardSelector == null || !followsOnePrimary(primaryKind, kind)) return own;
        return own == null ? shardSelector : own + "," + shardSelector;
    }

    /**
     * The label selector of a shard member's second informer of {@code kind}, the one that holds the kind's
     * objects no sharder or webhook has labelled yet: the kind's own selector and {@code !KEY}, where KEY is
     * the label {@code shardSelector} requires ({@code KEY=MEMBER}). Only for a kind mapped by labels that
     * name the primary: its objects are the ones others create from the operator's (a StatefulSet's Pods),
     * which the webhook at create may miss, and its own selector keeps the informer to the bundle's objects
     * (docs/sharding.md#objects-the-webhook-missed). Null for any other kind, and when not sharded.
     */
    public static String unlabelledSelector(PrimaryKind primaryKind, SecondaryKind kind, String shardSelector) {
        if (shardSelector == null || kind.mapping() != SecondaryKind.Mapping.LABELS || !followsOnePrimary(primaryKind, kind)) return null;
        int equals = shardSelector.indexOf('=');
        if (equals <= 0) throw new IllegalArgumentException("a shard selector is KEY=MEMBER, not " + shardSelector);
        return new LabelMapping(kind.selector()).informerSelector() + ",!" + shardSelector.substring(0, equals);
    }

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
