package dev.runbook.operator.shard;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A fake of the primaries' sharding labels and the members' Leases, in memory: the sharder's passes
 * ({@link Assignment}) and the owners' acknowledgements ({@link OwnerSide}) are applied to it step by
 * step, and every step checks the invariant: a primary passes from one member to another only through
 * "unassigned" (its owner acknowledged a drain) or when its owner is no longer live.
 */
final class ShardedPrimaries {
    private final Map<String, ShardLabels> primaries = new LinkedHashMap<>();
    private final Set<String> live = new TreeSet<>();
    private final List<String> violations = new ArrayList<>();
    int drains;
    int assignments;

    ShardedPrimaries(int count) {
        for (int i = 0; i < count; i++) {
            String key = ShardLabels.keyOf("postgres.runbook.dev", "PostgresCluster", "default", "pg-" + i);
            primaries.put(key, new ShardLabels(key, null, false));
        }
    }

    void join(String member) { live.add(member); }

    /** A graceful leave (the Lease released) or a death (the Lease expired): either way no longer live. */
    void gone(String member) { live.remove(member); }

    /** One sharder pass; returns how many label changes it wrote. */
    int sharderPass() {
        List<LabelChange> changes = Assignment.decide(Set.copyOf(live), primaries.values());
        for (LabelChange change : changes) {
            ShardLabels current = primaries.get(change.key());
            if (change instanceof LabelChange.Assign assign) {
                if (current.shard() != null && live.contains(current.shard())) {
                    violations.add(change.key() + " taken from live " + current.shard() + " to " + assign.member());
                }
                primaries.put(change.key(), new ShardLabels(change.key(), assign.member(), false));
                assignments++;
            } else {
                primaries.put(change.key(), new ShardLabels(change.key(), current.shard(), true));
                drains++;
            }
        }
        return changes.size();
    }

    /** Every live member acknowledges the drains of its primaries; returns how many. */
    int ownersAcknowledge() {
        int acknowledged = 0;
        for (String member : live) {
            for (ShardLabels primary : List.copyOf(primaries.values())) {
                if (OwnerSide.of(member, primary) == OwnerSide.ACKNOWLEDGE_DRAIN) {
                    primaries.put(primary.key(), new ShardLabels(primary.key(), null, false));
                    acknowledged++;
                }
            }
        }
        return acknowledged;
    }

    /** Sharder passes and acknowledgements until nothing changes; returns the number of rounds. */
    int settle() {
        for (int round = 1; round <= 10; round++) {
            if (sharderPass() + ownersAcknowledge() == 0) return round;
        }
        throw new AssertionError("assignment did not settle in 10 rounds");
    }

    /** The member each primary would act under: the live owner labelled and not draining. */
    Map<String, String> actors() {
        Map<String, String> actors = new HashMap<>();
        for (ShardLabels primary : primaries.values()) {
            for (String member : live) {
                if (OwnerSide.of(member, primary) == OwnerSide.ACT && actors.put(primary.key(), member) != null) {
                    violations.add(primary.key() + " has two actors");
                }
            }
        }
        return actors;
    }

    Map<String, Integer> shares() {
        Map<String, Integer> shares = new HashMap<>();
        actors().values().forEach(member -> shares.merge(member, 1, Integer::sum));
        return shares;
    }

    Collection<ShardLabels> labels() { return primaries.values(); }

    List<String> violations() { return violations; }
}
