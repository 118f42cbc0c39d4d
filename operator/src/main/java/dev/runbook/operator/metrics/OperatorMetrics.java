package dev.runbook.operator.metrics;

import dev.runbook.operator.cycle.CycleListener;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.rules.fact.Primary;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The operator's metrics, in one Prometheus registry: cycles, rule firings, actions and refused plans
 * (from each {@link CycleReport}), the active version of each bundle, reloads, and leadership.
 *
 * <p>Metrics must never get in the way of the operator: every recording method catches what goes wrong,
 * logs it at debug level and drops it.
 */
public final class OperatorMetrics implements CycleListener, AutoCloseable {
    static final String RELOADS = "runbook.bundle.reloads";
    static final String LEADER = "runbook.leader";
    static final String WEBHOOK = "runbook.webhook.serving";
    static final String SHARD_PRIMARIES = "runbook.shard.primaries";

    private static final Logger LOG = LoggerFactory.getLogger(OperatorMetrics.class);

    private final PrometheusMeterRegistry registry;
    private final CycleMeters cycles;
    private final ControllerRuntimeMeters reconciles;
    private final BundleGauges bundles;
    private final PrimaryPhases phases;
    private final AtomicInteger webhook = new AtomicInteger(-1);
    private final AtomicInteger leader = new AtomicInteger();
    private final List<AutoCloseable> binders = new ArrayList<>();
    private final Map<String, WorkQueueMeters> workQueues = new ConcurrentHashMap<>();

    /** The operator's own meters in {@code registry}, without the JVM's: see {@link #bindJvmMetrics()}. */
    public OperatorMetrics(PrometheusMeterRegistry registry) {
        this.registry = registry;
        this.cycles = new CycleMeters(registry);
        this.reconciles = new ControllerRuntimeMeters(registry);
        this.bundles = new BundleGauges(registry);
        this.phases = new PrimaryPhases(registry);
        Gauge.builder(LEADER, leader, AtomicInteger::get)
                .description("1 when this replica is the leader and acts, 0 otherwise")
                .strongReference(true)
                .register(registry);
    }

    /**
     * What a bundle's JOSDK controller reports its queue to ({@code workqueue_depth} and
     * {@code workqueue_retries_total}); one per bundle, kept across restarts of its controller.
     */
    @Override
    public io.javaoperatorsdk.operator.api.monitoring.Metrics controllerMetrics(String bundle) {
        return workQueues.computeIfAbsent(TagValue.of(bundle), name -> new WorkQueueMeters(registry, name,
                id -> quietly("primary deletion", () -> phases.removed(bundle, id))));
    }

    /** A new registry with the operator's meters and the JVM's: what {@code runbook run} serves. */
    public static OperatorMetrics create() {
        return new OperatorMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)).bindJvmMetrics();
    }

    /** Adds memory, garbage collection, threads, class loading, CPU and uptime. Call once. */
    public synchronized OperatorMetrics bindJvmMetrics() {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        // The GC binder listens to the JVM's GC notifications until it is closed.
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(registry);
        binders.add(gc);
        return this;
    }

    @Override
    public void cycleRecorded(Primary primary, CycleReport report) {
        quietly("cycle", () -> cycles.record(primary, report));
        quietly("reconcile", () -> reconciles.record(report));
        if (primary != null) quietly("phase", () -> phases.record(primary, report));
    }

    /** A bundle's version became active: the first load ({@code generation} 1) or a swap (+1 each). */
    public void bundleActivated(String bundle, String version, long generation) {
        quietly("bundle activation", () -> bundles.activated(bundle, version, generation));
        // Reloads of both results and plan problems present at 0 from the start: increase() over a series that
        // appears at 1 reads 0, and an alert on the first refusal would never fire.
        quietly("bundle activation", () -> {
            reloads(bundle, "accepted");
            reloads(bundle, "refused");
            cycles.conflicts(bundle);
        });
    }

    /** A bundle is no longer run: its active-version and generation series leave the scrape. */
    public void bundleRemoved(String bundle) {
        quietly("bundle removal", () -> bundles.removed(bundle));
    }

    /** A new version of the bundle (or of the ConfigMap holding it) compiled and was swapped in. */
    public void reloadAccepted(String bundle) {
        quietly("reload", () -> reloads(bundle, "accepted").increment());
    }

    /** A new version of the bundle was refused (it did not compile or check); the old one keeps running. */
    public void reloadRefused(String bundle) {
        quietly("reload", () -> reloads(bundle, "refused").increment());
    }

    /**
     * Whether this replica serves the admission webhook for bundle ConfigMaps: {@code runbook_webhook_serving}
     * 1 while it does, 0 once it stopped; absent from the scrape of an operator that was not asked to serve it.
     */
    public void webhookServing(boolean serving) {
        if (webhook.getAndSet(serving ? 1 : 0) < 0) {
            Gauge.builder(WEBHOOK, webhook, AtomicInteger::get)
                    .description("1 while this replica serves the admission webhook for bundle ConfigMaps, 0 once it stopped")
                    .strongReference(true)
                    .register(registry);
        }
    }

    /** With sharding: how many primaries this member's informers hold, read from {@code count} at each scrape. */
    public void shardPrimaries(Supplier<Number> count) {
        Gauge.builder(SHARD_PRIMARIES, count)
                .description("With --shards: the primaries this member owns (labelled runbook.dev/shard with its name), as its informers hold them")
                .strongReference(true)
                .register(registry);
    }

    /** Whether this replica leads, and so acts. */
    public void leading(boolean leading) {
        leader.set(leading ? 1 : 0);
    }

    /** The metrics in the Prometheus text format, version 0.0.4. */
    public String scrape() {
        return registry.scrape();
    }

    /** For meters of other parts of the operator (JOSDK's, the client's) to join the same scrape. */
    public PrometheusMeterRegistry registry() {
        return registry;
    }

    @Override
    public synchronized void close() {
        for (AutoCloseable binder : binders) {
            try {
                binder.close();
            } catch (Exception e) {
                LOG.debug("could not close the metrics binder {}: {}", binder, e.toString());
            }
        }
        binders.clear();
        registry.close();
    }

    private Counter reloads(String bundle, String result) {
        return Counter.builder(RELOADS)
                .description("Bundle reloads, by whether the new version was accepted or refused")
                .tags("bundle", TagValue.of(bundle), "result", result)
                .register(registry);
    }

    private static void quietly(String what, Runnable recording) {
        try {
            recording.run();
        } catch (RuntimeException e) {
            LOG.debug("dropped the metrics of a {}: {}", what, e.toString(), e);
        }
    }
}
