package dev.runbook.engine.policy;

import java.util.Set;

/**
 * What the operator's administrator lets one bundle touch (docs/security.md, "Policy"). A bundle's own
 * {@code limits} can only narrow it: see {@link EffectiveLimits}.
 *
 * @param namespaces    where its actions may go
 * @param kinds         the namespaced kinds its actions may write (apply, patch, label, delete, events
 *                      about them); null means the kinds the bundle declares: its primary and secondaries
 * @param clusterScoped the cluster-scoped kinds its actions may write; empty: none
 * @param clusterScopedReads the cluster-scoped kinds it may read (watch in every namespace, e.g. the
 *                      Nodes its pods run on, declared in bundle.yaml); null means those the bundle
 *                      declares. Reading grants no write: writes stay with {@code clusterScoped}
 */
public record BundlePolicy(Namespaces namespaces, Set<String> kinds, Set<String> clusterScoped, Set<String> clusterScopedReads) {
    /**
     * The policy of a bundle nobody wrote one for: its primary's namespace, its declared kinds, nothing
     * cluster-scoped to write, and the cluster-scoped kinds it declares to read.
     */
    public static final BundlePolicy DEFAULT = new BundlePolicy(Namespaces.PRIMARY, null, Set.of(), null);

    public BundlePolicy {
        kinds = kinds == null ? null : Set.copyOf(kinds);
        clusterScoped = Set.copyOf(clusterScoped);
        clusterScopedReads = clusterScopedReads == null ? null : Set.copyOf(clusterScopedReads);
    }

    /** A policy that lets the bundle read the cluster-scoped kinds it declares. */
    public BundlePolicy(Namespaces namespaces, Set<String> kinds, Set<String> clusterScoped) {
        this(namespaces, kinds, clusterScoped, null);
    }

    /** Whether {@link #kinds} is the bundle's own declared kinds rather than a list. */
    public boolean declaredKinds() { return kinds == null; }

    /**
     * Either the primary's own namespace ({@code namespaces: primary}), never one of the reserved ones
     * (kube-system, the operator's own, ...), or exactly the listed namespaces.
     */
    public record Namespaces(boolean primary, Set<String> names) {
        public static final Namespaces PRIMARY = new Namespaces(true, Set.of());

        public Namespaces {
            names = Set.copyOf(names);
        }

        public static Namespaces listed(Set<String> names) { return new Namespaces(false, names); }

        @Override
        public String toString() { return primary ? "the primary's namespace" : "namespaces " + new java.util.TreeSet<>(names); }
    }
}
