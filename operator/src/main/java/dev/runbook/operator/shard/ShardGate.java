package dev.runbook.operator.shard;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The owner's side of sharding at the start of a primary's reconcile: a cycle runs only on a primary
 * labelled with this member and not draining ({@link OwnerSide#ACT}); on a drain, this reconcile is the
 * acknowledgement (both labels removed, no cycle). JOSDK never runs two reconciles of one primary at
 * once, so when the acknowledgement is written no cycle of this member on the primary is running.
 * Unsharded ({@link #ALL}) every primary is acted on, as before sharding.
 */
public final class ShardGate {
    private static final Logger LOG = LoggerFactory.getLogger(ShardGate.class);
    /** No sharding: act on every primary the informer holds. */
    public static final ShardGate ALL = new ShardGate(null, null);

    private final String member;
    private final LabelPatches patches;
    /** The member's label selector, built once: every cycle asks for it. */
    private final String selector;

    private ShardGate(String member, LabelPatches patches) {
        this.member = member;
        this.patches = patches;
        this.selector = member == null ? null : ShardLabels.selectorOf(member);
    }

    /** The gate of {@code member}, acknowledging drains through {@code patches} (of the bundle's primary kind). */
    public static ShardGate of(String member, LabelPatches patches) {
        return new ShardGate(ShardLabels.requireMemberName(member), patches);
    }

    /** The label selector of the member's share, for its informers; null when not sharded. */
    public String selector() {
        return selector;
    }

    /** The labels every object the member applies for one of its primaries carries: none when not sharded. */
    public java.util.Map<String, String> stamp() {
        return member == null ? java.util.Map.of() : java.util.Map.of(ShardLabels.SHARD, member);
    }

    /** Whether to run the cycle on {@code primary}; on a drain, acknowledges it first and answers no. */
    public boolean mayAct(GenericKubernetesResource primary) {
        if (member == null) return true;
        ShardLabels labels = ShardLabels.of("", primary.getMetadata().getLabels());
        OwnerSide side = OwnerSide.of(member, labels);
        if (side == OwnerSide.ACKNOWLEDGE_DRAIN) {
            // A refused write (the primary changed) is retried at the primary's next event: the drain label stays.
            LabelPatches.Outcome outcome = patches.acknowledgeDrain(primary);
            LOG.info("{} hands {}/{} back (drain acknowledged: {})", member, primary.getMetadata().getNamespace(),
                    primary.getMetadata().getName(), outcome);
        }
        return side == OwnerSide.ACT;
    }
}
