package dev.runbook.operator.runtime;

import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.engine.bundle.SecondaryKind;
import dev.runbook.engine.decide.DecidingBundle;
import dev.runbook.operator.shard.Sharder;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The sharders the leader runs: one {@link Sharder} per primary kind of the bundles running now, moving
 * the bundle's secondaries with their primaries (docs/sharding.md#handover-of-secondaries), over the
 * namespaces the operator watches (all of them for a cluster-scoped kind). Asked at every tick of the
 * sharder's loop, so a reload that brings a new primary kind, or new secondary kinds, is sharded from the
 * next tick. The same kinds get the same instance each time: the loop sees a change of the list as a
 * change of kinds.
 */
final class PrimarySharders implements Supplier<List<Sharder>> {
    private final KubernetesClient client;
    private final Set<String> namespaces;
    private final Supplier<List<DecidingBundle>> bundles;
    private final Map<Kinds, Sharder> byKinds = new LinkedHashMap<>();

    /** What a sharder is built from: a bundle's primary kind and its secondary kinds. */
    private record Kinds(PrimaryKind primary, List<SecondaryKind> secondaries) {}

    /** @param namespaces the namespaces the operator watches; empty for all */
    PrimarySharders(KubernetesClient client, Set<String> namespaces, Supplier<List<DecidingBundle>> bundles) {
        this.client = client;
        this.namespaces = Set.copyOf(namespaces);
        this.bundles = bundles;
    }

    @Override
    public synchronized List<Sharder> get() {
        List<Sharder> sharders = new ArrayList<>();
        for (DecidingBundle bundle : bundles.get()) {
            Kinds kinds = new Kinds(bundle.spec().primary(), List.copyOf(bundle.spec().secondaries()));
            Sharder sharder = byKinds.computeIfAbsent(kinds, k ->
                    new Sharder(client, k.primary(), k.secondaries(), k.primary().namespaced() ? namespaces : Set.of()));
            if (!sharders.contains(sharder)) sharders.add(sharder);
        }
        return sharders;
    }

    /** The primary kinds of the bundles running now: the webhook at create assigns new primaries of these. */
    List<PrimaryKind> primaryKinds() {
        return bundles.get().stream().map(bundle -> bundle.spec().primary()).distinct().toList();
    }
}
