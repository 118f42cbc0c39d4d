package dev.runbook.operator.shard;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A consistent-hash ring of the live members: each member stands at {@link #VIRTUAL_NODES} points of a
 * 64-bit circle, and a primary belongs to the first member point at or after the primary's own hash
 * (wrapping round). When a member joins, only the primaries that now fall to it move (about 1/n of
 * them); when one leaves, only its own primaries move. The ring is immutable and a pure function of the
 * member names: every replica that builds it from the same members assigns every key alike, whatever
 * the order it learnt the members in.
 *
 * <p>Hashes are the first 8 bytes of SHA-256 (the JDK's, present on every JVM): stable across JVMs and
 * releases, unlike {@code String.hashCode}, and well spread, so 100 points per member keep shares within a
 * few percent of even for a handful of members (the figures are in {@code HashRingTest}).
 */
public final class HashRing {
    /** Points per member: enough for shares near 1/n with 2–10 members, few enough to build in microseconds. */
    public static final int VIRTUAL_NODES = 100;

    private final SortedSet<String> members;
    private final TreeMap<Long, String> points = new TreeMap<>();

    private HashRing(SortedSet<String> members) {
        this.members = members;
        for (String member : members) {
            for (int i = 0; i < VIRTUAL_NODES; i++) {
                // On the rare collision of two points the smaller name wins, the same on every replica.
                points.merge(hash(member + "#" + i), member, (a, b) -> a.compareTo(b) <= 0 ? a : b);
            }
        }
    }

    public static HashRing of(Collection<String> members) {
        for (String member : members) {
            if (member == null || member.isBlank()) throw new IllegalArgumentException("a ring member needs a name, got '" + member + "'");
        }
        return new HashRing(java.util.Collections.unmodifiableSortedSet(new TreeSet<>(members)));
    }

    public SortedSet<String> members() { return members; }

    /** The member {@code key} belongs to; empty when the ring has no member. */
    public Optional<String> ownerOf(String key) {
        if (points.isEmpty()) return Optional.empty();
        Map.Entry<Long, String> point = points.ceilingEntry(hash(key));
        return Optional.of(point != null ? point.getValue() : points.firstEntry().getValue());
    }

    static long hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest, 0, Long.BYTES).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
