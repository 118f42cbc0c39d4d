package dev.runbook.operator.kube;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The events this process recorded, by namespace and name, with the count it last wrote: what lets
 * {@link EventWriter} count a repeat without reading the event first. Bounded, least recently used
 * first out (client-go's event correlator keeps 4,096 the same way); an event forgotten here costs
 * one read more when it repeats, nothing else. Safe for the reconciler threads to share.
 */
final class RecordedEvents {
    static final int DEFAULT_CAPACITY = 4096;

    private final Map<String, Integer> counts;

    RecordedEvents(int capacity) {
        this.counts = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
                return size() > capacity;
            }
        };
    }

    /** The count last written for the event, or null when this process does not know it. */
    synchronized Integer count(String key) {
        return counts.get(key);
    }

    synchronized void remember(String key, int count) {
        counts.put(key, count);
    }

    synchronized void forget(String key) {
        counts.remove(key);
    }
}
