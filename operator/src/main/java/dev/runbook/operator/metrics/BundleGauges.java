package dev.runbook.operator.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which version of each bundle is active, and how many times it has been loaded.
 *
 * <p>The active version is a tag, so that a dashboard can show it and an alert can compare it across
 * replicas. A swap removes the old version's series instead of setting it to 0: a version that is gone
 * should not stay in the scrape forever, one series per version ever loaded.
 */
final class BundleGauges {
    static final String ACTIVE = "runbook.bundle.active";
    static final String GENERATION = "runbook.bundle.generation";

    /** The gauges of one bundle: the active version's, and the generation's with the value it reads. */
    private record Gauges(String version, Gauge active, Gauge generationGauge, AtomicLong generation) {}

    private final MeterRegistry registry;
    private final Map<String, Gauges> bundles = new HashMap<>();

    BundleGauges(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Synchronized because a swap is remove-then-register: two at once could leave two versions active. */
    synchronized void activated(String bundle, String version, long generation) {
        bundle = TagValue.of(bundle);
        version = TagValue.of(version);
        Gauges gauges = bundles.get(bundle);
        if (gauges == null) {
            AtomicLong value = new AtomicLong();
            Gauge generationGauge = Gauge.builder(GENERATION, value, AtomicLong::get)
                    .description("How many times the bundle has been loaded: 1 for the first load, +1 per swap")
                    .tag("bundle", bundle)
                    .strongReference(true)
                    .register(registry);
            gauges = new Gauges(version, activeGauge(bundle, version), generationGauge, value);
        } else if (!gauges.version().equals(version)) {
            registry.remove(gauges.active());
            gauges = new Gauges(version, activeGauge(bundle, version), gauges.generationGauge(), gauges.generation());
        }
        gauges.generation().set(generation);
        bundles.put(bundle, gauges);
    }

    synchronized void removed(String bundle) {
        Gauges gauges = bundles.remove(TagValue.of(bundle));
        if (gauges == null) return;
        registry.remove(gauges.active());
        registry.remove(gauges.generationGauge());
    }

    private Gauge activeGauge(String bundle, String version) {
        return Gauge.builder(ACTIVE, () -> 1)
                .description("1 for the version of each bundle that the operator runs")
                .tags("bundle", bundle, "version", version)
                .strongReference(true)
                .register(registry);
    }
}
