package dev.runbook.engine.policy;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.SecondaryKind;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The administrator's policy for a bundle intersected with the bundle's own {@code limits}: what the
 * plan check enforces. The bundle can only narrow: {@code limits.namespaces: primary} keeps actions in
 * the primary's namespace even where the policy grants more, and {@code limits.protectedKinds} removes
 * kinds; nothing in bundle.yaml adds a namespace or a kind.
 *
 * @param kinds          the namespaced kinds its actions may write, as the policy names them; the
 *                       declared ones qualified by their bundle.yaml group
 * @param protectedKinds bundle.yaml's {@code limits.protectedKinds}: never written, whatever their group
 * @param scenarios      the primary's namespace stands for one the policy grants ({@link Policy#forScenarios()})
 */
public record EffectiveLimits(String bundle, BundlePolicy policy, boolean bundleAllowsOtherNamespaces,
                              Set<KindName> kinds, Set<KindName> clusterScoped, Set<String> protectedKinds,
                              Set<String> reservedNamespaces, String policySource, boolean scenarios) {

    public static EffectiveLimits of(BundleSpec spec, Policy policy) {
        Computed computed = last;
        if (computed != null && computed.spec() == spec && computed.policy() == policy) return computed.limits();
        EffectiveLimits limits = compute(spec, policy);
        last = new Computed(spec, policy, limits);
        return limits;
    }

    /**
     * The limits last computed, by the identity of their two inputs (both immutable records): every
     * cycle of a bundle asks again with the same spec and policy, and computing them was 3% of a cycle.
     */
    private record Computed(BundleSpec spec, Policy policy, EffectiveLimits limits) {}

    private static volatile Computed last;

    private static EffectiveLimits compute(BundleSpec spec, Policy policy) {
        BundlePolicy granted = policy.forBundle(spec.name());
        Set<KindName> kinds = new LinkedHashSet<>(granted.declaredKinds() ? declaredKinds(spec) : parsed(granted.kinds()));
        kinds.add(KindName.of(spec.primary().kind().kind(), spec.primary().kind().group()));
        Set<KindName> clusterScoped = new LinkedHashSet<>(parsed(granted.clusterScoped()));
        if (!spec.primary().namespaced()) clusterScoped.add(KindName.of(spec.primary().kind().kind(), spec.primary().kind().group()));
        return new EffectiveLimits(spec.name(), granted, spec.limits().anyNamespace(), sorted(kinds), sorted(clusterScoped),
                Set.copyOf(spec.limits().protectedKinds()), policy.reservedNamespaces(), policy.source(), policy.scenarios());
    }

    static Set<KindName> declaredKinds(BundleSpec spec) {
        Set<KindName> kinds = new LinkedHashSet<>();
        kinds.add(KindName.of(spec.primary().kind().kind(), spec.primary().kind().group()));
        for (SecondaryKind secondary : spec.secondaries()) {
            // A cluster-scoped kind it reads (a Node) is no namespaced kind it may write: see ClusterScopedReads.
            if (!secondary.clusterScoped()) kinds.add(KindName.of(secondary.kind().kind(), secondary.kind().group()));
        }
        return kinds;
    }

    private static Set<KindName> parsed(Set<String> texts) {
        Set<KindName> kinds = new LinkedHashSet<>();
        for (String text : texts) kinds.add(KindName.parse(text));
        return kinds;
    }

    private static Set<KindName> sorted(Set<KindName> kinds) {
        Set<KindName> sorted = new java.util.TreeSet<>(java.util.Comparator.comparing(KindName::text));
        sorted.addAll(kinds);
        return java.util.Collections.unmodifiableSet(sorted);
    }

    /** Whether the policy grants the bundle no namespace at all: it may act nowhere. */
    public boolean grantsNoNamespace() {
        return !policy.namespaces().primary() && policy.namespaces().names().isEmpty();
    }

    /** Null when an action may go to {@code namespace}; otherwise why not, and how to allow it. */
    public String namespaceRefusal(String namespace, String primaryNamespace) {
        BundlePolicy.Namespaces granted = policy.namespaces();
        boolean own = namespace.equals(primaryNamespace);
        boolean byPolicy;
        if (granted.primary()) {
            byPolicy = own && !reservedNamespaces.contains(namespace);
        } else if (granted.names().contains(namespace)) {
            byPolicy = true;
        } else {
            // A scenario's primary stands for a primary in a namespace the list grants (docs/security.md, "Vetting").
            byPolicy = scenarios && own && !reservedNamespaces.contains(namespace) && !grantsNoNamespace();
        }
        if (!byPolicy) {
            String why = own && reservedNamespaces.contains(namespace) && (granted.primary() || scenarios)
                    ? "namespace " + namespace + " is reserved (" + new TreeSet<>(reservedNamespaces) + ") and "
                    : "namespace " + namespace + " is outside ";
            String stand = scenarios && own && grantsNoNamespace() ? " (a scenario's primary stands for a namespace the "
                    + "policy grants, and it grants none)" : "";
            return why + "what " + policySource + " grants bundle " + bundle + " (" + granted + ")" + stand + ": an administrator "
                    + "grants namespaces in the policy file, under bundles." + bundle + ".namespaces (docs/security.md)";
        }
        if (!bundleAllowsOtherNamespaces && !namespace.equals(primaryNamespace)) {
            return "namespace " + namespace + " is outside the primary's namespace " + primaryNamespace
                    + " (set limits.namespaces: any in bundle.yaml to use what the policy grants)";
        }
        return null;
    }

    /** Null when an action may write a namespaced object of {@code kind} in {@code apiVersion}; otherwise why not. */
    public String kindRefusal(String apiVersion, String kind) {
        if (protectedKinds.contains(kind)) {
            return "kind " + kind + " is listed in limits.protectedKinds of bundle.yaml";
        }
        if (anyMatches(kinds, apiVersion, kind)) return null;
        return "kind " + kind + " (" + apiVersion + ") is not one " + policySource + " lets bundle " + bundle + " write " + kinds
                + ": an administrator adds it under bundles." + bundle + ".kinds in the policy file, group-qualified"
                + " (e.g. " + example(apiVersion, kind) + "; docs/security.md)";
    }

    /** Null when an action may write a cluster-scoped object of {@code kind} in {@code apiVersion}; otherwise why not. */
    public String clusterScopedRefusal(String apiVersion, String kind) {
        if (!protectedKinds.contains(kind) && anyMatches(clusterScoped, apiVersion, kind)) return null;
        return "it is cluster-scoped (no namespace), and " + policySource + " lets bundle " + bundle
                + " write no cluster-scoped " + kind + ": an administrator allows it under bundles." + bundle
                + ".clusterScoped in the policy file (docs/security.md)";
    }

    /** A loop, not a stream: the plan check asks for every action of every cycle. */
    private static boolean anyMatches(Set<KindName> names, String apiVersion, String kind) {
        if (names.isEmpty()) return false;
        String group = KindName.groupOf(apiVersion);
        String lowerKind = kind.toLowerCase(Locale.ROOT);
        for (KindName name : names) {
            if (name.matches(group, kind, lowerKind)) return true;
        }
        return false;
    }

    /** How the policy names a kind group-qualified: {@code Job.batch}, or {@code pod} in the core group. */
    private static String example(String apiVersion, String kind) {
        String group = KindName.groupOf(apiVersion);
        return group.isEmpty() ? kind.toLowerCase(java.util.Locale.ROOT) : kind + "." + group;
    }
}
