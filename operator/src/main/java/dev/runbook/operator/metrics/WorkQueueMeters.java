package dev.runbook.operator.metrics;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * controller-runtime's {@code workqueue_depth{name}} and {@code workqueue_retries_total{name}} for one
 * bundle's controller, from what JOSDK tells its {@link Metrics}: JOSDK has no work queue to read, so
 * the depth is the primaries that had an event and have not been handed to a reconcile thread yet,
 * and a retry is a failed reconcile JOSDK scheduled again after a backoff (docs/metrics.md#work-queue).
 * The {@code name} is the bundle, as {@code controller} is in {@link ControllerRuntimeMeters}.
 */
final class WorkQueueMeters implements Metrics {
    static final String DEPTH = "workqueue.depth";
    static final String RETRIES = "workqueue.retries";

    private final Set<ResourceID> waiting = ConcurrentHashMap.newKeySet();
    private final Counter retries;
    private final java.util.function.Consumer<ResourceID> deleted;

    /** @param deleted told of each primary JOSDK cleaned up after its deletion */
    WorkQueueMeters(MeterRegistry registry, String bundle, java.util.function.Consumer<ResourceID> deleted) {
        this.deleted = deleted;
        String name = TagValue.of(bundle);
        Gauge.builder(DEPTH, waiting, Set::size)
                .description("Current depth of workqueue: primaries with an event waiting for a reconcile (controller-runtime's name)")
                .tag("name", name)
                .strongReference(true)
                .register(registry);
        this.retries = Counter.builder(RETRIES)
                .description("Total number of retries handled by workqueue: failed reconciles scheduled again (controller-runtime's name)")
                .tag("name", name)
                .register(registry);
    }

    /** The primary waits, once however many events it had: controller-runtime's queue holds a key once too. */
    @Override
    public void receivedEvent(Event event, Map<String, Object> metadata) {
        ResourceID id = event.getRelatedCustomResourceID();
        if (id != null) waiting.add(id);
    }

    /** Handed to a reconcile thread: it leaves the queue, as a key controller-runtime's worker takes. */
    @Override
    public void reconcileCustomResource(HasMetadata resource, io.javaoperatorsdk.operator.api.reconciler.RetryInfo retryInfo,
                                        Map<String, Object> metadata) {
        waiting.remove(ResourceID.fromResource(resource));
    }

    /** JOSDK calls this only when it schedules the failed reconcile again after a backoff. */
    @Override
    public void failedReconciliation(HasMetadata resource, Exception exception, Map<String, Object> metadata) {
        retries.increment();
    }

    /** The primary is gone: an event that never led to a reconcile no longer waits. */
    @Override
    public void cleanupDoneFor(ResourceID resourceID, Map<String, Object> metadata) {
        waiting.remove(resourceID);
        deleted.accept(resourceID);
    }
}
