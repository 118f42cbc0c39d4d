package dev.runbook.cli.rbac;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the operator needs in its own namespace, whatever bundles it runs (docs/install.md, "Permissions"),
 * beside what each bundle needs ({@link BundleRbac}): {@code runbook rbac --chart-rules} prints both, and the
 * Helm chart grants exactly these (deploy/chart/rbac-rules.yaml). RbacIT asks a real control plane that they
 * suffice and go no further.
 */
public final class OperatorRbac {
    private OperatorRbac() {}

    /** The verbs on each {@code group/resource} (the core group is empty) in the operator's own namespace. */
    public static Map<String, Set<String>> ownNamespace() {
        Map<String, Set<String>> needed = new TreeMap<>();
        // Bundle ConfigMaps (--bundle-configmaps): read and watched, never written, so that a bundle cannot
        // install another bundle. The policy ConfigMap is mounted by the kubelet and needs no right.
        needed.put("/configmaps", verbs("get", "list", "watch"));
        // The Secrets it owns there: the copies of accepted bundles (runbook-accepted-<ConfigMap>), which keep an
        // accepted bundle running across restarts, and the webhook's certificate (runbook-operator-webhook-tls).
        needed.put("/secrets", verbs("get", "list", "create", "update", "delete"));
        // The leader Lease (--leader-election): read, created by the first replica, renewed by merge patches. With
        // --shards, each replica's member Lease (runbook-shard-MEMBER) alike, and all of them listed by the sharder. The
        // presence Leases (a second operator acting is warned about): its own applied and deleted on stop, the others listed.
        needed.put("coordination.k8s.io/leases", verbs("get", "list", "create", "patch", "delete"));
        // Events on bundle ConfigMaps (BundleActivated, BundleRefused) and on presence Leases.
        needed.put("/events", verbs("create", "get", "patch"));
        return needed;
    }

    private static Set<String> verbs(String... verbs) {
        return new TreeSet<>(Set.of(verbs));
    }
}
