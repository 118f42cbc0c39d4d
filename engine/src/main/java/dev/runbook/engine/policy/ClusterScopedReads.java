package dev.runbook.engine.policy;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.SecondaryKind;

import java.util.List;
import java.util.TreeSet;

/**
 * Whether the policy lets a bundle read the cluster-scoped kinds its {@code bundle.yaml} declares (the
 * Nodes its pods run on). Reading one means watching it across the cluster, which no namespaced Role
 * grants, so an administrator says so in the policy ({@code clusterScopedReads}) as well as in RBAC.
 * Writes are another matter: they stay with {@code clusterScoped} and the plan check.
 */
public final class ClusterScopedReads {
    private ClusterScopedReads() {}

    /** The cluster-scoped kinds the bundle declares, in declaration order. */
    public static List<String> declared(BundleSpec spec) {
        return spec.secondaries().stream().filter(SecondaryKind::clusterScoped).map(s -> s.kind().kind()).distinct().toList();
    }

    /**
     * Null when the policy lets the bundle read every cluster-scoped kind it declares; otherwise why not,
     * and the fix. The policy names kinds as it names the others ({@link KindName}: {@code nodes}, or
     * the plain {@code Node}).
     */
    public static String refusal(BundleSpec spec, Policy policy) {
        BundlePolicy granted = policy.forBundle(spec.name());
        if (granted.clusterScopedReads() == null) return null;
        List<KindName> names = granted.clusterScopedReads().stream().map(KindName::parse).toList();
        List<String> refused = spec.secondaries().stream().filter(SecondaryKind::clusterScoped)
                .filter(s -> names.stream().noneMatch(n -> n.matches(s.kind().apiVersion(), s.kind().kind())))
                .map(s -> s.kind().kind()).distinct().toList();
        if (refused.isEmpty()) return null;
        return "bundle " + spec.name() + " reads the cluster-scoped " + String.join(", ", refused) + " (bundle.yaml, secondaries), which "
                + policy.source() + " does not let it read " + new TreeSet<>(granted.clusterScopedReads())
                + ": an administrator adds it (e.g. nodes) under bundles." + spec.name() + ".clusterScopedReads in the policy file and grants"
                + " get, list and watch on it in a ClusterRole (docs/security.md, \"Reading cluster-scoped kinds\")";
    }
}
