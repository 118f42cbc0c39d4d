package dev.runbook.operator.metrics;

import dev.runbook.operator.act.AppliedAction;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.rules.action.SetStatus;
import dev.runbook.rules.fact.Primary;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code runbook_primary_phase{bundle, namespace, name, phase} 1}: the phase each primary's status holds
 * after its last cycle ({@code status.phase}, as its bundle's rules set it), for a dashboard's table of
 * clusters and an alert on a cluster that stays out of its healthy phase. The one metric that names
 * primaries: one series per primary that has a phase, only its current phase (the old phase's series is
 * removed when it changes, not set to 0), and removed when the primary is deleted. So the series are as
 * many as the primaries, which the operator holds in memory anyway (docs/metrics.md#primaries).
 */
final class PrimaryPhases {
    static final String PHASE = "runbook.primary.phase";
    private static final String STATUS_PHASE = "phase";

    private record Shown(String phase, Gauge gauge) {}

    private final MeterRegistry registry;
    private final Map<String, Shown> shown = new ConcurrentHashMap<>();

    PrimaryPhases(MeterRegistry registry) {
        this.registry = registry;
    }

    private static String key(String bundle, String namespace, String name) {
        return bundle + "/" + (namespace == null ? "" : namespace) + "/" + name;
    }

    void record(Primary primary, CycleReport report) {
        String key = key(report.bundle(), primary.getNamespace(), primary.getName());
        String phase = phaseAfter(primary, report);
        shown.compute(key, (k, before) -> {
            if (before != null && before.phase().equals(phase)) return before;
            if (before != null) registry.remove(before.gauge());
            if (phase == null) return null;
            Gauge gauge = Gauge.builder(PHASE, () -> 1)
                    .description("1 for the phase each primary's status holds after its last cycle (status.phase)")
                    .tags("bundle", TagValue.of(report.bundle()), "namespace", TagValue.of(primary.getNamespace()),
                            "name", TagValue.of(primary.getName()), "phase", TagValue.of(phase))
                    .strongReference(true)
                    .register(registry);
            return new Shown(phase, gauge);
        });
    }

    /** The primary is gone: its series leaves the scrape. */
    void removed(String bundle, ResourceID id) {
        Shown gone = shown.remove(key(bundle, id.getNamespace().orElse(null), id.getName()));
        if (gone != null) registry.remove(gone.gauge());
    }

    /** The phase the cycle wrote (its last applied {@code setStatus phase} on the primary), else the one it observed. */
    static String phaseAfter(Primary primary, CycleReport report) {
        String phase = null;
        for (AppliedAction applied : report.applied()) {
            if (applied.planned().action() instanceof SetStatus set && set.getPath().equals(STATUS_PHASE)
                    && primary.getRef().equals(set.getTarget()) && set.getValue() != null) {
                phase = String.valueOf(set.getValue());
            }
        }
        if (phase != null) return phase;
        Object observed = primary.get("status." + STATUS_PHASE);
        return observed == null || String.valueOf(observed).isEmpty() ? null : String.valueOf(observed);
    }
}
