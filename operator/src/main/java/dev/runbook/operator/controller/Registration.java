package dev.runbook.operator.controller;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.engine.bundle.SecondaryKind;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * What a bundle's JOSDK controller is built from, beyond its rules and templates: the primary kind,
 * the informers of its secondary kinds, its reconcile period, its field manager, the namespaces and
 * whether it has cleanup rules (then its reconciler is a JOSDK {@code Cleaner} and a finalizer holds
 * each primary).
 * A reloaded bundle with the same registration only swaps rules under the running controller; one
 * with another registration needs a new controller.
 */
record Registration(PrimaryKind primary, List<SecondaryKind> secondaries, Duration reconcilePeriod,
                    String fieldManager, Set<String> namespaces, boolean cleanup, String shardMember) {

    /** @param shardMember the shard member whose primaries alone the controller watches (docs/sharding.md); null for all */
    static Registration of(BundleSpec spec, Set<String> namespaces, String shardMember) {
        return new Registration(spec.primary(), spec.secondaries(), spec.reconcilePeriod(), spec.fieldManager(), namespaces,
                spec.hasCleanup(), shardMember);
    }

    /** What differs from {@code other}, for the log line of a restart: e.g. "primary kind, secondary kinds". */
    String differencesFrom(Registration other) {
        List<String> differences = new java.util.ArrayList<>();
        if (!primary.equals(other.primary)) differences.add("primary kind");
        if (!secondaries.equals(other.secondaries)) differences.add("secondary kinds");
        if (!reconcilePeriod.equals(other.reconcilePeriod)) differences.add("reconcile period");
        if (!fieldManager.equals(other.fieldManager)) differences.add("field manager");
        if (!namespaces.equals(other.namespaces)) differences.add("namespaces");
        if (cleanup != other.cleanup) differences.add("cleanup");
        if (!java.util.Objects.equals(shardMember, other.shardMember)) differences.add("shard");
        return String.join(", ", differences);
    }
}
