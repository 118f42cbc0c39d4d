package dev.runbook.operator.shard;

/**
 * What a replica does with a primary its informer shows it, from the primary's sharding labels alone:
 * act only on what is labelled with its own name and not draining; on a drain, stop and acknowledge.
 */
public enum OwnerSide {
    /** Labelled with this member, not draining: run its cycles. */
    ACT,
    /** Labelled with this member and draining: run no more cycles, then remove both labels to hand it back. */
    ACKNOWLEDGE_DRAIN,
    /** Not this member's (another's, or unassigned): never act. */
    LEAVE;

    public static OwnerSide of(String member, ShardLabels primary) {
        if (!member.equals(primary.shard())) return LEAVE;
        return primary.draining() ? ACKNOWLEDGE_DRAIN : ACT;
    }
}
