package dev.runbook.operator.shard;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The sharder's decision, a pure function of the live members and the primaries' current labels: which
 * labels to change so that every primary ends on its ring owner, without two members ever acting on one
 * primary. Per primary:
 *
 * <ul>
 *   <li>unassigned → assign it to its ring owner;</li>
 *   <li>owned by a member that is not live (its Lease expired or was released) → assign it to its ring
 *       owner at once: the dead member stopped acting before its Lease expired (its renew deadline is
 *       shorter than the Lease), so nobody acts on it now;</li>
 *   <li>owned by a live member that is not its ring owner, not yet draining → drain it: the live owner
 *       must stop and acknowledge before anyone else gets it;</li>
 *   <li>draining, owner live → wait for the acknowledgement (the owner removes both labels, the primary
 *       is then unassigned and the first rule gives it to its ring owner). A drain is never called off,
 *       even when membership flaps back and the owner is its ring owner again: calling it off races the
 *       owner's acknowledgement, and waiting costs one pause, never safety;</li>
 *   <li>owned by its ring owner, not draining → nothing.</li>
 * </ul>
 *
 * With no live member nothing is assigned: a primary stays with its dead owner, unserved, until a member
 * is back, which is what one replica with a lapsed leader Lease does today.
 */
public final class Assignment {
    private Assignment() {}

    public static List<LabelChange> decide(Set<String> liveMembers, Collection<ShardLabels> primaries) {
        HashRing ring = HashRing.of(liveMembers);
        List<LabelChange> changes = new ArrayList<>();
        for (ShardLabels primary : primaries) {
            next(ring, primary).ifPresent(changes::add);
        }
        return changes;
    }

    private static Optional<LabelChange> next(HashRing ring, ShardLabels primary) {
        Optional<String> desired = ring.ownerOf(primary.key());
        if (desired.isEmpty()) return Optional.empty();
        Optional<String> owner = primary.owner();
        if (owner.isEmpty() || !ring.members().contains(owner.get())) {
            return Optional.of(new LabelChange.Assign(primary.key(), desired.get()));
        }
        if (primary.draining() || owner.equals(desired)) return Optional.empty();
        return Optional.of(new LabelChange.Drain(primary.key(), owner.get()));
    }
}
