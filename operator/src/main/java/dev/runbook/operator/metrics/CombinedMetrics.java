package dev.runbook.operator.metrics;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

import java.util.Map;

/**
 * Two of JOSDK's {@link Metrics} as one, for a controller that reports to one: the first times the
 * controller's executions and sizes its maps, both hear every event. So the work-queue meters and,
 * say, the decision history both learn that a primary was deleted.
 */
public record CombinedMetrics(Metrics first, Metrics second) implements Metrics {
    /** One of them alone when the other does nothing. */
    public static Metrics of(Metrics first, Metrics second) {
        if (second == null || second == Metrics.NOOP) return first;
        if (first == null || first == Metrics.NOOP) return second;
        return new CombinedMetrics(first, second);
    }

    @Override
    public void controllerRegistered(Controller<? extends HasMetadata> controller) {
        first.controllerRegistered(controller);
        second.controllerRegistered(controller);
    }

    @Override
    public void receivedEvent(Event event, Map<String, Object> metadata) {
        first.receivedEvent(event, metadata);
        second.receivedEvent(event, metadata);
    }

    @Override
    public void reconcileCustomResource(HasMetadata resource, RetryInfo retryInfo, Map<String, Object> metadata) {
        first.reconcileCustomResource(resource, retryInfo, metadata);
        second.reconcileCustomResource(resource, retryInfo, metadata);
    }

    @Override
    public void failedReconciliation(HasMetadata resource, Exception exception, Map<String, Object> metadata) {
        first.failedReconciliation(resource, exception, metadata);
        second.failedReconciliation(resource, exception, metadata);
    }

    @Override
    public void reconciliationExecutionStarted(HasMetadata resource, Map<String, Object> metadata) {
        first.reconciliationExecutionStarted(resource, metadata);
        second.reconciliationExecutionStarted(resource, metadata);
    }

    @Override
    public void reconciliationExecutionFinished(HasMetadata resource, Map<String, Object> metadata) {
        first.reconciliationExecutionFinished(resource, metadata);
        second.reconciliationExecutionFinished(resource, metadata);
    }

    @Override
    public void cleanupDoneFor(ResourceID resourceID, Map<String, Object> metadata) {
        first.cleanupDoneFor(resourceID, metadata);
        second.cleanupDoneFor(resourceID, metadata);
    }

    @Override
    public void finishedReconciliation(HasMetadata resource, Map<String, Object> metadata) {
        first.finishedReconciliation(resource, metadata);
        second.finishedReconciliation(resource, metadata);
    }

    @Override
    public <T> T timeControllerExecution(ControllerExecution<T> execution) throws Exception {
        return first.timeControllerExecution(execution);
    }

    @Override
    public <T extends Map<?, ?>> T monitorSizeOf(T map, String name) {
        return first.monitorSizeOf(map, name);
    }
}
