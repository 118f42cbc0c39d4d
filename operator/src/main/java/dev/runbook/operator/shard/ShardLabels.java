package dev.runbook.operator.shard;

import java.util.Map;
import java.util.Optional;

/**
 * What sharding reads and writes on a primary: its hash key and its two labels. {@value #SHARD} names
 * the member that owns it (the only replica whose informers see it and that may act on it);
 * {@value #DRAIN} asks that owner to stop and hand it back, which the owner acknowledges by removing
 * both labels ({@link OwnerSide}).
 *
 * @param key      the primary's hash key ({@link #keyOf})
 * @param shard    the owning member, or null when unassigned
 * @param draining whether the drain label is set
 */
public record ShardLabels(String key, String shard, boolean draining) {
    public static final String SHARD = "runbook.dev/shard";
    public static final String DRAIN = "runbook.dev/drain";

    /**
     * The hash key of a primary: its API group, kind, namespace and name, which are all known at create
     * (so that an admission webhook can assign the same member the sharder would); never its uid.
     */
    public static String keyOf(String group, String kind, String namespace, String name) {
        return group + "/" + kind + "/" + namespace + "/" + name;
    }

    /** The sharding labels of a primary with hash key {@code key} and these labels (null for none). */
    public static ShardLabels of(String key, Map<String, String> labels) {
        Map<String, String> present = labels == null ? Map.of() : labels;
        return new ShardLabels(key, present.get(SHARD), present.containsKey(DRAIN));
    }

    public Optional<String> owner() { return Optional.ofNullable(shard); }

    /** The label selector of {@code member}'s primaries, for its informers. */
    public static String selectorOf(String member) {
        return SHARD + "=" + requireMemberName(member);
    }

    /**
     * A member's name is the value of {@value #SHARD} on its primaries, so it must be a label value: at
     * most 63 characters of [a-z0-9A-Z._-], starting and ending with a letter or digit. Replicas are named
     * after their pod (the Downward API's metadata.name), which is one when the pod name is short enough.
     */
    public static String requireMemberName(String member) {
        if (member == null || !MEMBER_NAME.matcher(member).matches()) {
            throw new IllegalArgumentException("shard member name '" + member + "' is not a label value: use at most 63 "
                    + "letters, digits, '-', '_' or '.', starting and ending with a letter or digit (the replica's "
                    + "identity, normally its pod name)");
        }
        return member;
    }

    private static final java.util.regex.Pattern MEMBER_NAME =
            java.util.regex.Pattern.compile("[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?");
}
