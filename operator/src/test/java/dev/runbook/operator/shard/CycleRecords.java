package dev.runbook.operator.shard;

import dev.runbook.operator.cycle.CycleListener;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.rules.fact.Primary;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every cycle the replicas of one test ran on one primary kind: member, primary, from its decision's
 * start to its record, on one clock (the replicas share the JVM), for {@link DoubleActors#find}.
 */
public final class CycleRecords {
    private final String group;
    private final String kind;
    private final List<DoubleActors.Cycle> cycles = Collections.synchronizedList(new ArrayList<>());

    public CycleRecords(String group, String kind) {
        this.group = group;
        this.kind = kind;
    }

    /** The listener of {@code member}'s replica: records each cycle on the reconciling thread. */
    public CycleListener of(String member) {
        Map<Thread, Instant> started = new ConcurrentHashMap<>();
        return new CycleListener() {
            @Override
            public void decisionStarted(Primary primary) { started.put(Thread.currentThread(), Instant.now()); }

            @Override
            public void cycleRecorded(Primary primary, CycleReport report) {
                Instant end = Instant.now();
                Instant start = started.getOrDefault(Thread.currentThread(), end);
                started.remove(Thread.currentThread());
                cycles.add(new DoubleActors.Cycle(member, keyOf(primary.getNamespace(), primary.getName()), start, end));
            }
        };
    }

    /** The hash key of a primary of the kind. */
    public String keyOf(String namespace, String name) {
        return ShardLabels.keyOf(group, kind, namespace, name);
    }

    public List<DoubleActors.Cycle> all() {
        return List.copyOf(cycles);
    }

    /** Per primary, the members that started a cycle on it after {@code since}. */
    public Map<String, Set<String>> membersSince(Instant since) {
        Map<String, Set<String>> members = new HashMap<>();
        for (DoubleActors.Cycle cycle : all()) {
            if (cycle.start().isAfter(since)) members.computeIfAbsent(cycle.primaryKey(), k -> new TreeSet<>()).add(cycle.member());
        }
        return members;
    }
}
