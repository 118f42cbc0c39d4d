package dev.runbook.engine.policy;

import dev.runbook.engine.bundle.BundleSpec;

/**
 * What the policy refuses a bundle as a whole, before any of its rules run and wherever its scenarios'
 * objects live: a bundle granted no namespace can act nowhere, and one that declares a cluster-scoped
 * kind the policy does not let it read cannot start its controller. Vetting refuses both at once (one
 * line, instead of every scenario failing), and so does {@code runbook pack --policy}.
 */
public final class PolicyRefusals {
    private PolicyRefusals() {}

    /** Null when the policy lets the bundle run; otherwise why not, and the fix. */
    public static String of(BundleSpec spec, Policy policy) {
        if (EffectiveLimits.of(spec, policy).grantsNoNamespace()) {
            return policy.source() + " grants bundle " + spec.name() + " no namespace (namespaces []), so it could act "
                    + "nowhere: an administrator names the namespaces it may act in under bundles." + spec.name()
                    + ".namespaces in the policy file (docs/security.md)";
        }
        return ClusterScopedReads.refusal(spec, policy);
    }
}
