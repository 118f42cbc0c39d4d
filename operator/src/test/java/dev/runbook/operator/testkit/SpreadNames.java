package dev.runbook.operator.testkit;

import dev.runbook.operator.shard.HashRing;
import dev.runbook.operator.shard.ShardLabels;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Names for a sharding test's primaries such that every member of every ring the test forms owns at
 * least one of them. A primary's hash key holds the test's namespace, which is random; with {@code app-0}
 * to {@code app-9} the ring of replica-a and replica-b (shares 57% and 43%) gives all ten to replica-a in
 * about one run in 260, and a test that waits for a handover to replica-b then times out. The names are
 * {@code prefix-i} for the smallest indexes that give each member one, then the smallest others: the same
 * names for the same namespace, whatever the run.
 */
public final class SpreadNames {
    /** How far the search for a member's first name goes: a member of n holds about 1/n of the indexes. */
    private static final int SEARCH = 10_000;

    private SpreadNames() {}

    /**
     * {@code count} names of primaries of {@code group}/{@code kind} in {@code namespace}, each member of each
     * ring owning at least one, in index order.
     */
    public static List<String> over(String group, String kind, String namespace, String prefix, int count, List<Set<String>> rings) {
        TreeSet<Integer> chosen = new TreeSet<>();
        for (Set<String> members : rings) {
            HashRing ring = HashRing.of(members);
            for (String member : new TreeSet<>(members)) {
                if (chosen.stream().anyMatch(i -> ownerIs(ring, member, group, kind, namespace, prefix, i))) continue;
                chosen.add(firstOwnedBy(ring, member, group, kind, namespace, prefix));
            }
        }
        if (chosen.size() > count) {
            throw new IllegalArgumentException(count + " names cannot give each member of " + rings + " one: " + chosen.size() + " needed");
        }
        for (int i = 0; chosen.size() < count; i++) chosen.add(i);
        List<String> names = new ArrayList<>();
        for (int i : chosen) names.add(prefix + "-" + i);
        return names;
    }

    private static int firstOwnedBy(HashRing ring, String member, String group, String kind, String namespace, String prefix) {
        for (int i = 0; i < SEARCH; i++) {
            if (ownerIs(ring, member, group, kind, namespace, prefix, i)) return i;
        }
        throw new IllegalStateException("no name " + prefix + "-0.." + (SEARCH - 1) + " falls to " + member + " on the ring of " + ring.members());
    }

    private static boolean ownerIs(HashRing ring, String member, String group, String kind, String namespace, String prefix, int i) {
        return ring.ownerOf(ShardLabels.keyOf(group, kind, namespace, prefix + "-" + i)).orElseThrow().equals(member);
    }
}
