package dev.runbook.operator.history;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runbook.operator.cycle.CycleListener;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.rules.fact.Primary;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The last decisions of each primary, in memory: at most {@code perPrimary} of them, newest first, each
 * with its trace ({@link DecisionRecord}), for {@code /decisions/NAMESPACE/NAME} and {@code runbook why
 * --history}. It records what the cycle received as its decision, wherever the rules ran.
 *
 * <p>Memory is bounded twice. A cycle that decided the same as the one before it (the same rules, the same
 * actions with the same outcomes: a resource at rest, reconciled at its period) adds no entry: the entry
 * before it counts it ({@code repeated}, {@code lastCycle}, {@code lastAt}), so a failover is not pushed
 * out by the quiet cycles after it. And a primary's history goes when the primary is deleted (JOSDK's
 * {@code cleanupDoneFor}). Each entry is kept as its JSON text, deflated: a decision repeats its facts'
 * descriptions from firing to firing, and compresses about tenfold (docs/performance-log.md#the-decision-history).
 */
public final class DecisionHistory implements CycleListener {
    private static final Logger LOG = LoggerFactory.getLogger(DecisionHistory.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One entry: the decision's JSON, what tells it apart, and the repeats it stands for. */
    private static final class Entry {
        final byte[] json;
        final int signature;
        int repeated;
        String lastCycle;
        String lastAt;

        Entry(byte[] json, int signature) {
            this.json = json;
            this.signature = signature;
        }
    }

    /** How many decisions {@code runbook run} keeps per primary unless told otherwise. */
    public static final int DEFAULT_PER_PRIMARY = 10;

    private final int perPrimary;
    private final Clock clock;
    private final Map<String, Deque<Entry>> byPrimary = new ConcurrentHashMap<>();

    /** @param perPrimary how many decisions to keep per primary, at least 1 */
    public DecisionHistory(int perPrimary, Clock clock) {
        if (perPrimary < 1) throw new IllegalArgumentException("a history keeps at least one decision per primary");
        this.perPrimary = perPrimary;
        this.clock = clock;
    }

    private static String key(String namespace, String name) {
        return (namespace == null ? "" : namespace) + "/" + name;
    }

    @Override
    public void cycleRecorded(Primary primary, CycleReport report) {
        try {
            record(primary, report);
        } catch (RuntimeException | JsonProcessingException e) {
            LOG.debug("the decision of cycle {} was not kept: {}", report.cycleId(), e.toString());
        }
    }

    private void record(Primary primary, CycleReport report) throws JsonProcessingException {
        int signature = DecisionRecord.signature(report).hashCode();
        Deque<Entry> entries = byPrimary.computeIfAbsent(key(primary.getNamespace(), primary.getName()), k -> new ArrayDeque<>());
        synchronized (entries) {
            Entry newest = entries.peekFirst();
            if (newest != null && newest.signature == signature) {
                newest.repeated++;
                newest.lastCycle = report.cycleId();
                newest.lastAt = clock.instant().toString();
                return;
            }
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("at", clock.instant().toString());
            record.putAll(DecisionRecord.of(primary, report));
            entries.addFirst(new Entry(Deflated.of(JSON.writeValueAsBytes(record)), signature));
            while (entries.size() > perPrimary) entries.removeLast();
        }
    }

    /** The primary's decisions, newest first, as JSON maps; empty when none was recorded. */
    public Optional<List<Map<String, Object>>> decisions(String namespace, String name) {
        Deque<Entry> entries = byPrimary.get(key(namespace, name));
        if (entries == null) return Optional.empty();
        List<Map<String, Object>> decisions = new ArrayList<>();
        synchronized (entries) {
            for (Iterator<Entry> it = entries.iterator(); it.hasNext(); ) {
                Entry entry = it.next();
                try {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> decision = JSON.readValue(Deflated.inflate(entry.json), LinkedHashMap.class);
                    if (entry.repeated > 0) {
                        decision.put("repeated", entry.repeated);
                        decision.put("lastCycle", entry.lastCycle);
                        decision.put("lastAt", entry.lastAt);
                    }
                    decisions.add(decision);
                } catch (java.io.IOException e) {
                    throw new IllegalStateException("a kept decision does not read back", e);
                }
            }
        }
        return decisions.isEmpty() ? Optional.empty() : Optional.of(decisions);
    }

    /** The answer of {@code /decisions/NAMESPACE/NAME}: {@code {"decisions": [...]}}, or empty. */
    public Optional<String> json(String namespace, String name) {
        return decisions(namespace, name).map(list -> {
            try {
                return JSON.writeValueAsString(Map.of("decisions", list));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** How many bytes the kept decisions take, compressed, for docs/performance.md's sizing. */
    public long bytes() {
        long total = 0;
        for (Deque<Entry> entries : byPrimary.values()) {
            synchronized (entries) {
                for (Entry entry : entries) total += entry.json.length;
            }
        }
        return total;
    }

    /** A deleted primary's history goes with it. */
    @Override
    public Metrics controllerMetrics(String bundle) {
        return new Metrics() {
            @Override
            public void cleanupDoneFor(ResourceID id, Map<String, Object> metadata) {
                byPrimary.remove(key(id.getNamespace().orElse(null), id.getName()));
            }
        };
    }

}
