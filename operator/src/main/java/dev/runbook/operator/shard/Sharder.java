package dev.runbook.operator.shard;

import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.engine.bundle.SecondaryKind;
import dev.runbook.operator.concurrent.DaemonThreads;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One pass of the sharder over one primary kind: list the primaries, decide with {@link Assignment}
 * against the live members, write each change ({@link LabelPatches}). It runs in the replica that holds
 * the leader Lease, on each change of the members and every resync period ({@link ShardingLoop}). The list is served from the API server's watch cache
 * ({@code resourceVersion=0}): it may be a little behind, and a change decided from it that no longer
 * fits is refused by its precondition.
 *
 * <p>With the bundle's secondary kinds, a pass also moves the secondaries with their primary
 * ({@link SecondaryLabels}), in this order, so that a new owner never sees its primary without them
 * (docs/sharding.md#handover-of-secondaries):
 * <ol>
 *   <li>before it writes an owner on a primary, every secondary of that primary gets the owner's label;
 *       when one cannot be labelled, the primary is left as it is ({@link LabelPatches.Outcome#DEFERRED})
 *       and the next pass tries again;</li>
 *   <li>then the primary's label is written (with its precondition);</li>
 *   <li>every primary that keeps its owner has any secondary that does not carry the owner's label
 *       labelled: one created meanwhile without it, or by a create that read its owner's label before
 *       the relabel.</li>
 * </ol>
 * A drain moves no secondary: the old owner acts on them until it acknowledges.
 */
public final class Sharder {
    /** How many primaries one pass moves at once (each with its secondaries first). */
    static final int CONCURRENT_MOVES = 8;
    private final KubernetesClient client;
    private final String apiVersion;
    private final String kind;
    private final PrimaryKind primaryKind;
    private final List<SecondaryKind> secondaries;
    private final Set<String> namespaces;
    private final LabelPatches patches;

    /**
     * A sharder of the primaries alone, for a primary kind without secondaries to move.
     *
     * @param namespaces the namespaces the operator watches, as its bundles' registrations name them; empty for all
     */
    public Sharder(KubernetesClient client, String apiVersion, String kind, Set<String> namespaces) {
        this(client, new PrimaryKind(new Kind(apiVersion, kind), "", true), List.of(), namespaces);
    }

    /**
     * The sharder of a bundle's primary kind, moving the secondaries of {@code secondaries}' kinds with
     * their primaries: the runtime builds one per bundle from its {@code BundleSpec} ({@code spec.primary()},
     * {@code spec.secondaries()}).
     *
     * @param namespaces the namespaces the operator watches, as its bundles' registrations name them; empty for all
     */
    public Sharder(KubernetesClient client, PrimaryKind primaryKind, List<SecondaryKind> secondaries, Set<String> namespaces) {
        this.client = client;
        this.apiVersion = primaryKind.kind().apiVersion();
        this.kind = primaryKind.kind().kind();
        this.primaryKind = primaryKind;
        this.secondaries = List.copyOf(secondaries);
        this.namespaces = Set.copyOf(namespaces);
        this.patches = new LabelPatches(client, apiVersion, kind);
    }

    /**
     * What one pass did: its writes' outcomes on primaries, how many primaries wait for their live owner's
     * acknowledgement of a drain (another pass is due once they are acknowledged), and how many
     * secondaries it labelled.
     */
    public record Pass(Map<LabelPatches.Outcome, Integer> outcomes, int draining, int secondariesLabelled) {
        public boolean wrote() { return outcomes.containsKey(LabelPatches.Outcome.WRITTEN); }

        /** Whether a pass soon may have work: a write refused or made, or drains to follow up. */
        public boolean unsettled() { return !outcomes.isEmpty() || draining > 0; }
    }

    /**
     * Brings every primary one step closer to its ring owner among {@code liveMembers}, its secondaries first;
     * primaries that are not Ready before the others ({@link MoveOrder}).
     */
    public Pass pass(Set<String> liveMembers) {
        Map<String, GenericKubernetesResource> byKey = new LinkedHashMap<>();
        for (GenericKubernetesResource primary : list()) byKey.put(keyOf(primary), primary);
        SecondaryLabels secondaryLabels = SecondaryLabels.list(client, primaryKind, secondaries, namespaces);
        List<LabelChange> changes = MoveOrder.notReadyFirst(Assignment.decide(liveMembers,
                byKey.entrySet().stream().map(e -> ShardLabels.of(e.getKey(), e.getValue().getMetadata().getLabels())).toList()), byKey);
        Map<LabelPatches.Outcome, Integer> outcomes = new EnumMap<>(LabelPatches.Outcome.class);
        int labelled = 0;
        Set<String> changed = new java.util.HashSet<>();
        for (Move move : moveAll(changes, byKey, secondaryLabels)) {
            changed.add(move.key());
            outcomes.merge(move.outcome(), 1, Integer::sum);
            labelled += move.secondariesLabelled();
        }
        for (Map.Entry<String, GenericKubernetesResource> entry : byKey.entrySet()) {
            if (changed.contains(entry.getKey())) continue;
            ShardLabels labels = ShardLabels.of(entry.getKey(), entry.getValue().getMetadata().getLabels());
            // A missed secondary follows an owner that keeps its primary; a dead owner's wait for the reassignment.
            if (labels.owner().filter(liveMembers::contains).isPresent()) {
                labelled += secondaryLabels.label(idOf(entry.getValue()), labels.shard()).written();
            }
        }
        int draining = (int) byKey.entrySet().stream().map(e -> ShardLabels.of(e.getKey(), e.getValue().getMetadata().getLabels()))
                .filter(labels -> labels.draining() && labels.owner().filter(liveMembers::contains).isPresent()).count();
        return new Pass(Map.copyOf(outcomes), draining, labelled);
    }

    /** What moving one primary did: its write's outcome, and how many of its secondaries it labelled first. */
    private record Move(String key, LabelPatches.Outcome outcome, int secondariesLabelled) {}

    /**
     * Carries out {@code changes}, up to {@link #CONCURRENT_MOVES} primaries at once. Each primary's own
     * order holds (its secondaries, then the primary); primaries are independent of each other. One at a
     * time, a dead member's share waited for every write of every primary before it: at N=1000 on two
     * replicas, some 5,000 sequential label writes made the takeover take minutes instead of the Lease's
     * duration (docs/performance.md#sharded-replicas).
     */
    private List<Move> moveAll(List<LabelChange> changes, Map<String, GenericKubernetesResource> byKey,
                               SecondaryLabels secondaryLabels) {
        if (changes.size() <= 1) return changes.stream().map(change -> move(change, byKey, secondaryLabels)).toList();
        ExecutorService writers = Executors.newFixedThreadPool(Math.min(CONCURRENT_MOVES, changes.size()),
                DaemonThreads.named("runbook-sharder-writes"));
        try {
            List<Future<Move>> moves = new java.util.ArrayList<>();
            for (LabelChange change : changes) moves.add(writers.submit(() -> move(change, byKey, secondaryLabels)));
            List<Move> done = new java.util.ArrayList<>();
            for (Future<Move> move : moves) done.add(join(move));
            return done;
        } finally {
            writers.shutdownNow();
        }
    }

    private static Move join(Future<Move> move) {
        try {
            return move.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the sharder's pass was interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) throw failure;
            throw new IllegalStateException(e.getCause());
        }
    }

    /** One primary to its new labels: when it gets an owner, that owner's label on its secondaries first. */
    private Move move(LabelChange change, Map<String, GenericKubernetesResource> byKey, SecondaryLabels secondaryLabels) {
        GenericKubernetesResource primary = byKey.get(change.key());
        int labelled = 0;
        if (change instanceof LabelChange.Assign assign) {
            SecondaryLabels.Labelled first = secondaryLabels.label(idOf(primary), assign.member());
            labelled = first.written();
            if (!first.complete()) return new Move(change.key(), LabelPatches.Outcome.DEFERRED, labelled);
        }
        return new Move(change.key(), patches.apply(primary, change), labelled);
    }

    private static ResourceID idOf(GenericKubernetesResource primary) {
        return new ResourceID(primary.getMetadata().getName(), primary.getMetadata().getNamespace());
    }

    private List<GenericKubernetesResource> list() {
        var fromWatchCache = new ListOptionsBuilder().withResourceVersion("0").build();
        var resources = client.genericKubernetesResources(apiVersion, kind);
        if (namespaces.isEmpty()) return resources.inAnyNamespace().list(fromWatchCache).getItems();
        List<GenericKubernetesResource> primaries = new java.util.ArrayList<>();
        for (String namespace : namespaces) primaries.addAll(resources.inNamespace(namespace).list(fromWatchCache).getItems());
        return primaries;
    }

    private String keyOf(GenericKubernetesResource primary) {
        return ShardLabels.keyOf(groupOf(apiVersion), kind, primary.getMetadata().getNamespace(), primary.getMetadata().getName());
    }

    /** The API group of {@code group/version}; "" for the core group's {@code v1}. */
    static String groupOf(String apiVersion) {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }
}
