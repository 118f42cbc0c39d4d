package dev.runbook.operator.testkit;

import dev.runbook.operator.cycle.CycleListener;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.rules.fact.Primary;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ConcurrentHashMap;

/** Counts the cycles the operator recorded per primary (namespace/name) and keeps the last report. */
public final class Cycles implements CycleListener {
    private final Map<String, Integer> counts = new ConcurrentHashMap<>();
    private final Map<String, CycleReport> last = new ConcurrentHashMap<>();
    private final Map<String, List<CycleReport>> all = new ConcurrentHashMap<>();

    @Override
    public void cycleRecorded(Primary primary, CycleReport report) {
        String key = primary.getNamespace() + "/" + primary.getName();
        last.put(key, report);
        all.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(report);
        counts.merge(key, 1, Integer::sum);
    }

    /** Every report recorded for the primary, oldest first. */
    public List<CycleReport> all(String namespace, String name) {
        return List.copyOf(all.getOrDefault(namespace + "/" + name, List.of()));
    }

    public int count(String namespace, String name) {
        return counts.getOrDefault(namespace + "/" + name, 0);
    }

    public CycleReport last(String namespace, String name) {
        return last.get(namespace + "/" + name);
    }
}
