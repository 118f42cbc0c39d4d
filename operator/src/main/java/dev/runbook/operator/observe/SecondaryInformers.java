package dev.runbook.operator.observe;

import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.engine.bundle.SecondaryKind;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.rules.fact.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The informers of one bundle's secondary kinds: how they are declared ({@link #declare}: one per
 * kind, each mapping its objects to their primary by owner reference, by labels, or by the objects that
 * name them), and, during a cycle, what they hold: the objects observed for the primary
 * ({@link #observed}) and any object of a kind they cover ({@link #covers}, {@link #get}).
 *
 * <p>An informer covers a kind in a namespace when it holds every object of that kind there: a
 * namespaced kind mapped by owner reference or by reference, in a watched namespace, or a
 * cluster-scoped kind mapped by reference (watched everywhere). A kind mapped by labels is watched
 * through a label selector, so its informer holds only the matching objects, and covers nothing.
 *
 * <p>A shard member's owner-mapped informer holds only the objects labelled with the member, that is,
 * those of its own primaries: it still covers the kind for them (every object of an owned primary
 * carries the label), not for another member's object, which it does not hold. So an object of an owned
 * primary that missed its label (until the sharder's next pass labels it) is applied as if new, and
 * reported CREATED once.
 *
 * <p>A kind mapped by labels that name the primary has, in a shard member, a second informer: the bundle's
 * objects of the kind that carry no shard label at all ({@link SecondaryMappers#unlabelledSelector}), such
 * as a Pod created while the webhook at create did not answer. The cycle observes both informers' objects
 * ({@link #observed}), so the owner of a primary sees such an object at once, not after the sharder's next
 * pass labels it; a member that does not own the primary holds it too but never maps it to a primary of its
 * own. Normally that cache is empty: it holds only what is waiting for its label (docs/sharding.md#objects-the-webhook-missed).
 */
public final class SecondaryInformers<P extends HasMetadata> {
    private static final HeartbeatFilter HEARTBEATS = new HeartbeatFilter();

    private final List<SecondaryKind> secondaries;
    private final Set<String> namespaces;
    private final Context<P> context;
    private final KubeApi api;
    /** Per secondary kind, whether it has an informer of its unlabelled objects too. */
    private final List<Boolean> unlabelled;

    /**
     * The informers of {@code context}'s controller, declared by {@link #declare} with the same kinds,
     * namespaces and shard selector; {@code unlabelled} is {@link #withUnlabelledSources} for them, computed
     * once by the controller, which builds one of these every cycle.
     */
    public SecondaryInformers(List<SecondaryKind> secondaries, Set<String> namespaces, List<Boolean> unlabelled,
                              Context<P> context, KubeApi api) {
        this.secondaries = secondaries;
        this.namespaces = namespaces;
        this.context = context;
        this.api = api;
        this.unlabelled = unlabelled;
    }

    /** Per secondary kind, whether {@link #declare} gives it an informer of its unlabelled objects too. */
    public static List<Boolean> withUnlabelledSources(PrimaryKind primaryKind, List<SecondaryKind> secondaries,
                                                      String shardSelector) {
        return secondaries.stream()
                .map(kind -> SecondaryMappers.unlabelledSelector(primaryKind, kind, shardSelector) != null).toList();
    }

    /** The name of the event source of the i-th secondary kind. */
    static String sourceName(int index, SecondaryKind kind) {
        return "secondary-" + index + "-" + kind.kind().kind().toLowerCase(Locale.ROOT);
    }

    /** The name of the event source of the i-th secondary kind's objects not labelled with a shard yet. */
    static String unlabelledSourceName(int index, SecondaryKind kind) {
        return sourceName(index, kind) + "-unlabelled";
    }

    /**
     * One informer per secondary kind, in {@code bundle.yaml}'s order, keeping what {@code trimmed} keeps
     * of each object. A reference mapping's informer (Nodes) starts cycles on any change but a heartbeat
     * ({@link HeartbeatFilter}) and finds its primaries through an index on the referring kind's informer.
     * With a shard member, a kind whose objects follow one primary is watched through the member's label as
     * well ({@link SecondaryMappers#selector}): the informer then holds the objects of the member's own
     * primaries, each labelled with it at create or by the sharder before the primary was (docs/sharding.md#secondaries).
     * A kind mapped by labels that name the primary gets a second informer then, of its objects without a shard
     * label ({@link SecondaryMappers#unlabelledSelector}), mapped to their primaries alike.
     *
     * @param shardSelector the member's label selector ({@code runbook.dev/shard=MEMBER}); null when not sharded
     */
    public static <P extends HasMetadata> List<InformerEventSource<GenericKubernetesResource, P>> declare(
            EventSourceContext<P> context, PrimaryKind primaryKind, Class<P> primaryClass, List<SecondaryKind> secondaries,
            Set<String> namespaces, TrimmedCache trimmed, KubeApi api, String shardSelector) {
        List<InformerEventSource<GenericKubernetesResource, P>> sources = new ArrayList<>();
        Map<String, InformerEventSource<GenericKubernetesResource, P>> byKind = new HashMap<>();
        Map<String, SecondaryToPrimaryMapper<GenericKubernetesResource>> mappers = new HashMap<>();
        for (int i = 0; i < secondaries.size(); i++) {
            SecondaryKind kind = secondaries.get(i);
            var builder = InformerEventSourceConfiguration
                    .from(new GroupVersionKind(kind.kind().apiVersion(), kind.kind().kind()), primaryClass)
                    .withName(sourceName(i, kind));
            SecondaryToPrimaryMapper<GenericKubernetesResource> mapper;
            if (kind.mapping() == SecondaryKind.Mapping.REFERENCE) {
                // A cluster-scoped kind (Nodes) is watched as a whole: it has no namespace to inherit.
                if (kind.clusterScoped()) {
                    builder.withWatchAllNamespaces().withFollowControllerNamespacesChanges(false);
                    builder.withItemStore(trimmed.storeFor(Set.of()));
                } else {
                    builder.withNamespacesInheritedFromController();
                    builder.withItemStore(trimmed.storeFor(namespaces));
                }
                ReferenceMapping reference = new ReferenceMapping(kind);
                var referring = byKind.get(kind.reference().by());
                reference.indexReferring(referring, api::toMap);
                mapper = reference.mapper(referring, mappers.get(kind.reference().by()));
                builder.withOnUpdateFilter(HEARTBEATS::accept);
            } else {
                builder.withNamespacesInheritedFromController();
                builder.withItemStore(trimmed.storeFor(namespaces));
                mapper = SecondaryMappers.of(primaryKind, kind,
                        namespace -> context.getPrimaryCache().list(namespace).map(ResourceID::fromResource));
                String selector = SecondaryMappers.selector(primaryKind, kind, shardSelector);
                if (selector != null) builder.withLabelSelector(selector);
            }
            var source = new InformerEventSource<>(builder.withSecondaryToPrimaryMapper(mapper).build(), context);
            byKind.putIfAbsent(kind.kind().kind(), source);
            mappers.putIfAbsent(kind.kind().kind(), mapper);
            sources.add(source);
            String unlabelled = SecondaryMappers.unlabelledSelector(primaryKind, kind, shardSelector);
            if (unlabelled != null) {
                // JOSDK takes one label selector per event source: the unlabelled objects need a source of their own.
                // An object leaves it when it is labelled, as a delete on this watch and an add on the other: only
                // the add starts a cycle, which then sees it, rather than one that might run between the two.
                sources.add(new InformerEventSource<>(InformerEventSourceConfiguration
                        .from(new GroupVersionKind(kind.kind().apiVersion(), kind.kind().kind()), primaryClass)
                        .withName(unlabelledSourceName(i, kind)).withNamespacesInheritedFromController()
                        .withItemStore(trimmed.storeFor(namespaces)).withLabelSelector(unlabelled)
                        .withOnDeleteFilter((object, finalStateUnknown) -> false)
                        .withSecondaryToPrimaryMapper(mapper).build(), context));
            }
        }
        return sources;
    }

    /** Per secondary kind, the cached objects mapped to {@code primary}, as the cycle observes them. */
    public List<List<Map<String, Object>>> observed(P primary) {
        return ObservedSecondaries.of(secondaries, new ObservedSecondaries.Source() {
            @Override
            public List<GenericKubernetesResource> mappedTo(int index, SecondaryKind kind) {
                Map<ResourceID, GenericKubernetesResource> mapped = new LinkedHashMap<>();
                // An object being labelled can sit in both caches for a moment: the labelled copy is the newer.
                for (var source : sourcesAt(index)) {
                    source.getSecondaryResources(primary).forEach(object -> mapped.putIfAbsent(ResourceID.fromResource(object), object));
                }
                return List.copyOf(mapped.values());
            }

            @Override
            public Optional<GenericKubernetesResource> get(int index, SecondaryKind kind, ResourceID id) {
                return find(index, id);
            }
        }, api);
    }

    /** The object with that id as the informers of the {@code index}-th kind hold it: labelled first, then unlabelled. */
    private Optional<GenericKubernetesResource> find(int index, ResourceID id) {
        for (var source : sourcesAt(index)) {
            Optional<GenericKubernetesResource> found = source.get(id);
            if (found.isPresent()) return found;
        }
        return Optional.empty();
    }

    /** Whether an informer holds every object of {@code ref}'s kind in its namespace. */
    public boolean covers(ObjectRef ref) {
        return covering(ref).isPresent();
    }

    /** The object as an informer that covers its kind holds it; empty when none holds it. */
    public Optional<Map<String, Object>> get(ObjectRef ref) {
        return coveringIndex(ref).flatMap(index -> find(index, idOf(ref))).map(api::toMap);
    }

    /**
     * The informer that holds every object of {@code ref}'s kind in its namespace (a shard member's, every
     * labelled one of its primaries): where an object the cycle creates, labelled, goes.
     */
    public Optional<InformerEventSource<GenericKubernetesResource, P>> covering(ObjectRef ref) {
        return coveringIndex(ref).map(this::sourceAt);
    }

    private Optional<Integer> coveringIndex(ObjectRef ref) {
        boolean clusterScoped = ref.getNamespace() == null || ref.getNamespace().isEmpty();
        for (int i = 0; i < secondaries.size(); i++) {
            SecondaryKind kind = secondaries.get(i);
            if (!isKindOf(kind, ref)) continue;
            boolean covers = kind.mapping() != SecondaryKind.Mapping.LABELS && (kind.clusterScoped()
                    ? kind.mapping() == SecondaryKind.Mapping.REFERENCE && clusterScoped
                    : !clusterScoped && (namespaces.isEmpty() || namespaces.contains(ref.getNamespace())));
            if (covers) return Optional.of(i);
        }
        return Optional.empty();
    }

    /** Every informer of {@code ref}'s kind, whether it covers the kind or watches it through a selector, unlabelled ones too. */
    public List<InformerEventSource<GenericKubernetesResource, P>> ofKind(ObjectRef ref) {
        List<InformerEventSource<GenericKubernetesResource, P>> sources = new ArrayList<>();
        for (int i = 0; i < secondaries.size(); i++) {
            if (isKindOf(secondaries.get(i), ref)) sources.addAll(sourcesAt(i));
        }
        return sources;
    }

    private static ResourceID idOf(ObjectRef ref) {
        String namespace = ref.getNamespace() == null || ref.getNamespace().isEmpty() ? null : ref.getNamespace();
        return new ResourceID(ref.getName(), namespace);
    }

    private static boolean isKindOf(SecondaryKind kind, ObjectRef ref) {
        return kind.kind().apiVersion().equals(ref.getApiVersion()) && kind.kind().kind().equals(ref.getKind());
    }

    private InformerEventSource<GenericKubernetesResource, P> sourceAt(int index) {
        return sourceNamed(sourceName(index, secondaries.get(index)));
    }

    /** The informers of the {@code index}-th kind: its own, then, in a shard member, that of its unlabelled objects. */
    private List<InformerEventSource<GenericKubernetesResource, P>> sourcesAt(int index) {
        if (!unlabelled.get(index)) return List.of(sourceAt(index));
        return List.of(sourceAt(index), sourceNamed(unlabelledSourceName(index, secondaries.get(index))));
    }

    @SuppressWarnings("unchecked") // every secondary source is an InformerEventSource of generic resources
    private InformerEventSource<GenericKubernetesResource, P> sourceNamed(String name) {
        return (InformerEventSource<GenericKubernetesResource, P>) context.eventSourceRetriever()
                .getEventSourceFor(GenericKubernetesResource.class, name);
    }
}
