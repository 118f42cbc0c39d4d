package dev.runbook.operator.runtime;

import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.bundle.PrimaryKind;
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
 * The sharders the leader runs: one {@link Sharder} per primary kind of the bundles running now, over the
 * namespaces the operator watches (all of them for a cluster-scoped kind). Asked at every tick of the
 * sharder's loop, so a reload that brings a new primary kind is sharded from the next tick. The same kind
 * gets the same instance each time: the loop sees a change of the list as a change of kinds.
 */
final class PrimarySharders implements Supplier<List<Sharder>> {
    private final KubernetesClient client;
    private final Set<String> namespaces;
    private final Supplier<List<DecidingBundle>> bundles;
    private final Map<Kind, Sharder> byKind = new LinkedHashMap<>();

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
            PrimaryKind primary = bundle.spec().primary();
            Sharder sharder = byKind.computeIfAbsent(primary.kind(), kind ->
                    new Sharder(client, kind.apiVersion(), kind.kind(), primary.namespaced() ? namespaces : Set.of()));
            if (!sharders.contains(sharder)) sharders.add(sharder);
        }
        return sharders;
    }
}
