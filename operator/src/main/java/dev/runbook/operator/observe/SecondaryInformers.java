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
 */
public final class SecondaryInformers<P extends HasMetadata> {
    private static final HeartbeatFilter HEARTBEATS = new HeartbeatFilter();

    private final List<SecondaryKind> secondaries;
    private final Set<String> namespaces;
    private final Context<P> context;
    private final KubeApi api;

    /** The informers of {@code context}'s controller, declared by {@link #declare} with the same kinds and namespaces. */
    public SecondaryInformers(List<SecondaryKind> secondaries, Set<String> namespaces, Context<P> context, KubeApi api) {
        this.secondaries = secondaries;
        this.namespaces = namespaces;
        this.context = context;
        this.api = api;
    }

    /** The name of the event source of the i-th secondary kind. */
    static String sourceName(int index, SecondaryKind kind) {
        return "secondary-" + index + "-" + kind.kind().kind().toLowerCase(Locale.ROOT);
    }

    /**
     * One informer per secondary kind, in {@code bundle.yaml}'s order, keeping what {@code trimmed} keeps
     * of each object. A reference mapping's informer (Nodes) starts cycles on any change but a heartbeat
     * ({@link HeartbeatFilter}) and finds its primaries through an index on the referring kind's informer.
     * With a shard member, a kind whose objects follow one primary is watched through the member's label as
     * well ({@link SecondaryMappers#selector}): the informer then holds the objects of the member's own
     * primaries, each labelled with it at create or by the sharder before the primary was (docs/sharding.md#secondaries).
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
        }
        return sources;
    }

    /** Per secondary kind, the cached objects mapped to {@code primary}, as the cycle observes them. */
    public List<List<Map<String, Object>>> observed(P primary) {
        return ObservedSecondaries.of(secondaries, new ObservedSecondaries.Source() {
            @Override
            public List<GenericKubernetesResource> mappedTo(int index, SecondaryKind kind) {
                return sourceAt(index).getSecondaryResources(primary).stream().toList();
            }

            @Override
            public Optional<GenericKubernetesResource> get(int index, SecondaryKind kind, ResourceID id) {
                return sourceAt(index).get(id);
            }
        }, api);
    }

    /** Whether an informer holds every object of {@code ref}'s kind in its namespace. */
    public boolean covers(ObjectRef ref) {
        return covering(ref).isPresent();
    }

    /** The object as an informer that covers its kind holds it; empty when none holds it. */
    public Optional<Map<String, Object>> get(ObjectRef ref) {
        return covering(ref).flatMap(source -> source.get(idOf(ref))).map(api::toMap);
    }

    /** The informer that holds every object of {@code ref}'s kind in its namespace. */
    public Optional<InformerEventSource<GenericKubernetesResource, P>> covering(ObjectRef ref) {
        boolean clusterScoped = ref.getNamespace() == null || ref.getNamespace().isEmpty();
        for (int i = 0; i < secondaries.size(); i++) {
            SecondaryKind kind = secondaries.get(i);
            if (!isKindOf(kind, ref)) continue;
            boolean covers = kind.mapping() != SecondaryKind.Mapping.LABELS && (kind.clusterScoped()
                    ? kind.mapping() == SecondaryKind.Mapping.REFERENCE && clusterScoped
                    : !clusterScoped && (namespaces.isEmpty() || namespaces.contains(ref.getNamespace())));
            if (covers) return Optional.of(sourceAt(i));
        }
        return Optional.empty();
    }

    /** Every informer of {@code ref}'s kind, whether it covers the kind or watches it through a selector. */
    public List<InformerEventSource<GenericKubernetesResource, P>> ofKind(ObjectRef ref) {
        List<InformerEventSource<GenericKubernetesResource, P>> sources = new ArrayList<>();
        for (int i = 0; i < secondaries.size(); i++) {
            if (isKindOf(secondaries.get(i), ref)) sources.add(sourceAt(i));
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

    @SuppressWarnings("unchecked") // every secondary source is an InformerEventSource of generic resources
    private InformerEventSource<GenericKubernetesResource, P> sourceAt(int index) {
        return (InformerEventSource<GenericKubernetesResource, P>) context.eventSourceRetriever()
                .getEventSourceFor(GenericKubernetesResource.class, sourceName(index, secondaries.get(index)));
    }
}
