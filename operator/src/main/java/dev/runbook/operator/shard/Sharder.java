package dev.runbook.operator.shard;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One pass of the sharder over one primary kind: list the primaries, decide with {@link Assignment}
 * against the live members, write each change ({@link LabelPatches}). It runs in the replica that holds
 * the leader Lease, on each change of the members and every resync period (the loop around it is not
 * built yet: docs/sharding.md#whats-next). The list is served from the API server's watch cache
 * ({@code resourceVersion=0}): it may be a little behind, and a change decided from it that no longer
 * fits is refused by its precondition.
 */
public final class Sharder {
    private final KubernetesClient client;
    private final String apiVersion;
    private final String kind;
    private final Set<String> namespaces;
    private final LabelPatches patches;

    /** @param namespaces the namespaces the operator watches, as its bundles' registrations name them; empty for all */
    public Sharder(KubernetesClient client, String apiVersion, String kind, Set<String> namespaces) {
        this.client = client;
        this.apiVersion = apiVersion;
        this.kind = kind;
        this.namespaces = Set.copyOf(namespaces);
        this.patches = new LabelPatches(client, apiVersion, kind);
    }

    /**
     * What one pass did: its writes' outcomes, and how many primaries wait for their live owner's
     * acknowledgement of a drain (another pass is due once they are acknowledged).
     */
    public record Pass(Map<LabelPatches.Outcome, Integer> outcomes, int draining) {
        public boolean wrote() { return outcomes.containsKey(LabelPatches.Outcome.WRITTEN); }

        /** Whether a pass soon may have work: a write refused or made, or drains to follow up. */
        public boolean unsettled() { return !outcomes.isEmpty() || draining > 0; }
    }

    /** Brings every primary one step closer to its ring owner among {@code liveMembers}. */
    public Pass pass(Set<String> liveMembers) {
        Map<String, GenericKubernetesResource> byKey = new LinkedHashMap<>();
        for (GenericKubernetesResource primary : list()) byKey.put(keyOf(primary), primary);
        List<LabelChange> changes = Assignment.decide(liveMembers,
                byKey.entrySet().stream().map(e -> ShardLabels.of(e.getKey(), e.getValue().getMetadata().getLabels())).toList());
        Map<LabelPatches.Outcome, Integer> outcomes = new EnumMap<>(LabelPatches.Outcome.class);
        for (LabelChange change : changes) {
            outcomes.merge(patches.apply(byKey.get(change.key()), change), 1, Integer::sum);
        }
        int draining = (int) byKey.entrySet().stream().map(e -> ShardLabels.of(e.getKey(), e.getValue().getMetadata().getLabels()))
                .filter(labels -> labels.draining() && labels.owner().filter(liveMembers::contains).isPresent()).count();
        return new Pass(Map.copyOf(outcomes), draining);
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
