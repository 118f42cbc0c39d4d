package dev.runbook.engine.policy;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.SecondaryKind;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The administrator's policy for a bundle intersected with the bundle's own {@code limits}: what the
 * plan check enforces. The bundle can only narrow: {@code limits.namespaces: primary} keeps actions in
 * the primary's namespace even where the policy grants more, and {@code limits.protectedKinds} removes
 * kinds; nothing in bundle.yaml adds a namespace or a kind.
 */
public record EffectiveLimits(String bundle, BundlePolicy policy, boolean bundleAllowsOtherNamespaces,
                              Set<String> kinds, Set<String> clusterScoped, String primaryKind,
                              Set<String> reservedNamespaces, String policySource) {

    public static EffectiveLimits of(BundleSpec spec, Policy policy) {
        BundlePolicy granted = policy.forBundle(spec.name());
        List<String> protectedKinds = spec.limits().protectedKinds();
        String primaryKind = spec.primary().kind().kind();
        Set<String> kinds = new TreeSet<>(granted.declaredKinds() ? declaredKinds(spec) : granted.kinds());
        kinds.add(primaryKind);
        kinds.removeAll(protectedKinds);
        Set<String> clusterScoped = new TreeSet<>(granted.clusterScoped());
        if (!spec.primary().namespaced()) clusterScoped.add(primaryKind);
        clusterScoped.removeAll(protectedKinds);
        return new EffectiveLimits(spec.name(), granted, spec.limits().anyNamespace(), kinds, clusterScoped,
                primaryKind, policy.reservedNamespaces(), policy.source());
    }

    static Set<String> declaredKinds(BundleSpec spec) {
        Set<String> kinds = new LinkedHashSet<>();
        kinds.add(spec.primary().kind().kind());
        for (SecondaryKind secondary : spec.secondaries()) kinds.add(secondary.kind().kind());
        return kinds;
    }

    /** Null when an action may go to {@code namespace}; otherwise why not, and how to allow it. */
    public String namespaceRefusal(String namespace, String primaryNamespace) {
        BundlePolicy.Namespaces granted = policy.namespaces();
        boolean byPolicy = granted.primary()
                ? namespace.equals(primaryNamespace) && !reservedNamespaces.contains(namespace)
                : granted.names().contains(namespace);
        if (!byPolicy) {
            String why = granted.primary() && namespace.equals(primaryNamespace)
                    ? "namespace " + namespace + " is reserved (" + new TreeSet<>(reservedNamespaces) + ") and "
                    : "namespace " + namespace + " is outside ";
            return why + "what " + policySource + " grants bundle " + bundle + " (" + granted + "): an administrator "
                    + "grants namespaces in the policy file, under bundles." + bundle + ".namespaces (docs/security.md)";
        }
        if (!bundleAllowsOtherNamespaces && !namespace.equals(primaryNamespace)) {
            return "namespace " + namespace + " is outside the primary's namespace " + primaryNamespace
                    + " (set limits.namespaces: any in bundle.yaml to use what the policy grants)";
        }
        return null;
    }

    /** Null when an action may write a namespaced object of {@code kind}; otherwise why not. */
    public String kindRefusal(String kind) {
        if (kinds.contains(kind)) return null;
        return "kind " + kind + " is not one " + policySource + " lets bundle " + bundle + " write " + kinds
                + ": an administrator adds it under bundles." + bundle + ".kinds in the policy file"
                + " (docs/security.md), unless bundle.yaml lists it in limits.protectedKinds";
    }

    /** Null when an action may write a cluster-scoped object of {@code kind}; otherwise why not. */
    public String clusterScopedRefusal(String kind) {
        if (clusterScoped.contains(kind)) return null;
        return "it is cluster-scoped (no namespace), and " + policySource + " lets bundle " + bundle
                + " write no cluster-scoped " + kind + ": an administrator allows it under bundles." + bundle
                + ".clusterScoped in the policy file (docs/security.md)";
    }
}
