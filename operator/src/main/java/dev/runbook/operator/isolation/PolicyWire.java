package dev.runbook.operator.isolation;

import dev.runbook.engine.containment.ContainmentLimits;
import dev.runbook.engine.policy.BundlePolicy;
import dev.runbook.engine.policy.Policy;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The administrator's policy, sent to a worker so that it vets a bundle's scenarios under the policy the
 * bundle will run under. The limits cross as the operator resolved them ({@link Policy#containment()},
 * its overrides applied): a worker's environment is empty, so it could not read them itself. The worker
 * checks nothing for the operator with it: the operator checks every live plan itself.
 */
final class PolicyWire {
    private PolicyWire() {}

    static void write(Wire.Out out, Policy policy) {
        write(out, policy.defaults());
        out.writeInt(policy.bundles().size());
        policy.bundles().forEach((name, bundle) -> {
            out.writeString(name);
            write(out, bundle);
        });
        out.writeStrings(List.copyOf(policy.reservedNamespaces()));
        ContainmentLimits limits = policy.containment();
        writeDuration(out, limits.cycleDeadline());
        writeDuration(out, limits.scenarioDeadline());
        writeDuration(out, limits.vettingDeadline());
        out.writeLong(limits.cycleMemoryBytes());
        out.writeString(policy.source());
    }

    static Policy read(Wire.In in) {
        try {
            BundlePolicy defaults = bundle(in);
            int count = in.count(4);
            Map<String, BundlePolicy> bundles = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) bundles.put(in.readText("a bundle's name"), bundle(in));
            Set<String> reserved = new LinkedHashSet<>(in.readStrings());
            ContainmentLimits limits = new ContainmentLimits(duration(in), duration(in), duration(in), in.readLong());
            return new Policy(defaults, bundles, reserved, limits, in.readText("the policy's source"));
        } catch (IllegalArgumentException e) {
            throw new Wire.WireException("not a policy: " + e.getMessage());
        }
    }

    private static void write(Wire.Out out, BundlePolicy bundle) {
        out.writeBoolean(bundle.namespaces().primary()).writeStrings(List.copyOf(bundle.namespaces().names()));
        writeOptional(out, bundle.kinds());
        out.writeStrings(List.copyOf(bundle.clusterScoped()));
        writeOptional(out, bundle.clusterScopedReads());
    }

    private static BundlePolicy bundle(Wire.In in) {
        boolean primary = in.readBoolean();
        Set<String> names = new LinkedHashSet<>(in.readStrings());
        BundlePolicy.Namespaces namespaces = primary ? BundlePolicy.Namespaces.PRIMARY : BundlePolicy.Namespaces.listed(names);
        Set<String> kinds = optional(in);
        Set<String> clusterScoped = new LinkedHashSet<>(in.readStrings());
        return new BundlePolicy(namespaces, kinds, clusterScoped, optional(in));
    }

    private static void writeOptional(Wire.Out out, Set<String> names) {
        out.writeBoolean(names != null);
        if (names != null) out.writeStrings(List.copyOf(names));
    }

    private static Set<String> optional(Wire.In in) {
        return in.readBoolean() ? new LinkedHashSet<>(in.readStrings()) : null;
    }

    private static void writeDuration(Wire.Out out, Duration duration) {
        out.writeLong(duration.toNanos());
    }

    private static Duration duration(Wire.In in) {
        return Duration.ofNanos(in.readLong());
    }
}
