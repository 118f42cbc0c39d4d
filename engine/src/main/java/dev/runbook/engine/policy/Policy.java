package dev.runbook.engine.policy;

import dev.runbook.engine.containment.ContainmentLimits;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The operator administrator's policy: per bundle name, what it may touch; {@code defaults} for every
 * other bundle. Set outside bundles ({@code runbook run --policy FILE}, a ConfigMap in deploy/), so a
 * bundle's author cannot widen it. See docs/security.md, "Policy".
 *
 * @param defaults           for bundles not named in {@code bundles}
 * @param bundles            by bundle name
 * @param reservedNamespaces never granted by {@code namespaces: primary}: the system namespaces and
 *                           the operator's own (where its bundle ConfigMaps live)
 * @param limits             the deadlines and memory budget of rule code, as the file sets them (its
 *                           {@code limits} section; the defaults where it does not): {@link #containment()}
 *                           applies the administrator's overrides
 * @param source             where the policy came from, for messages: a file, or "the default policy"
 * @param scenarios          whether plans are checked for scenarios ({@link #forScenarios()}), whose primary's
 *                           namespace stands for one the policy grants
 * @param isolation          where each channel's bundles run (its {@code isolation} section)
 */
public record Policy(BundlePolicy defaults, Map<String, BundlePolicy> bundles, Set<String> reservedNamespaces,
                     ContainmentLimits limits, String source, boolean scenarios, Isolation isolation) {
    public static final Set<String> SYSTEM_NAMESPACES = Set.of("kube-system", "kube-public", "kube-node-lease");

    /** The policy when none is given: {@link BundlePolicy#DEFAULT} for every bundle. */
    public static final Policy DEFAULT = new Policy(BundlePolicy.DEFAULT, Map.of(), SYSTEM_NAMESPACES,
            ContainmentLimits.defaults(), "the default policy");

    public Policy {
        bundles = Map.copyOf(bundles);
        reservedNamespaces = Set.copyOf(reservedNamespaces);
        if (isolation == null) isolation = Isolation.DEFAULT;
    }

    /** The policy as the operator applies it to the cluster's primaries, with the default {@link Isolation}. */
    public Policy(BundlePolicy defaults, Map<String, BundlePolicy> bundles, Set<String> reservedNamespaces,
                  ContainmentLimits limits, String source) {
        this(defaults, bundles, reservedNamespaces, limits, source, false, Isolation.DEFAULT);
    }

    /** The same policy with another {@link Isolation}. */
    public Policy withIsolation(Isolation other) {
        return new Policy(defaults, bundles, reservedNamespaces, limits, source, scenarios, other);
    }

    /**
     * The same policy as a bundle's scenarios are checked against (vetting, {@code runbook test}). A
     * scenario's objects are fixtures: their namespace was chosen by the bundle's author, not by the
     * administrator, and the operator only ever sees a primary in a namespace it watches. So the
     * namespace of a scenario's primary stands for one the policy grants the bundle: an action there
     * passes when the policy grants the bundle any namespace that is not reserved. An action in another
     * namespace, and every kind and cluster-scoped check, is checked exactly as in production
     * (docs/security.md, "Vetting").
     */
    public Policy forScenarios() {
        return scenarios ? this : new Policy(defaults, bundles, reservedNamespaces, limits, source, true, isolation);
    }

    /**
     * The limits rule code runs under: the policy file's, each overridden by its system property or
     * environment variable when set (read now, so an override applies without a new policy).
     */
    public ContainmentLimits containment() {
        return limits.overriddenBySettings();
    }

    public BundlePolicy forBundle(String name) {
        return bundles.getOrDefault(name, defaults);
    }

    /** The same policy, with the operator's own namespace reserved as well. */
    public Policy reserving(String namespace) {
        Set<String> reserved = new LinkedHashSet<>(reservedNamespaces);
        reserved.add(namespace);
        return new Policy(defaults, bundles, reserved, limits, source, scenarios, isolation);
    }

    /**
     * The namespaces an operator under this policy needs to watch: the union of every listed namespace,
     * or empty (all namespaces) when some bundle may act in its primary's namespace, wherever that is.
     */
    public Optional<Set<String>> watchedNamespaces() {
        Set<String> all = new LinkedHashSet<>();
        for (BundlePolicy policy : concat()) {
            if (policy.namespaces().primary()) return Optional.empty();
            all.addAll(policy.namespaces().names());
        }
        return Optional.of(all);
    }

    private java.util.List<BundlePolicy> concat() {
        java.util.List<BundlePolicy> all = new java.util.ArrayList<>(bundles.values());
        all.add(defaults);
        return all;
    }
}
