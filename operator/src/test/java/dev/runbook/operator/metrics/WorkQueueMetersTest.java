package dev.runbook.operator.metrics;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** controller-runtime's work-queue meters from JOSDK's Metrics calls, as a Prometheus scrape shows them. */
class WorkQueueMetersTest {
    private final OperatorMetrics metrics = new OperatorMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    private final Metrics queue = metrics.controllerMetrics("web-app");

    @AfterEach
    void close() {
        metrics.close();
    }

    private static GenericKubernetesResource primary(String name) {
        GenericKubernetesResource resource = new GenericKubernetesResource();
        resource.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("team-a").build());
        return resource;
    }

    private static Event eventFor(String name) {
        return new Event(new ResourceID(name, "team-a"));
    }

    @Test
    void theDepthCountsEachPrimaryWaitingOnceUntilItsReconcileStarts() {
        queue.receivedEvent(eventFor("shop"), Map.of());
        queue.receivedEvent(eventFor("shop"), Map.of());
        queue.receivedEvent(eventFor("blog"), Map.of());
        assertThat(metrics.scrape().lines()).contains("workqueue_depth{name=\"web-app\"} 2.0");

        queue.reconcileCustomResource(primary("shop"), null, Map.of());
        assertThat(metrics.scrape().lines()).contains("workqueue_depth{name=\"web-app\"} 1.0");

        queue.cleanupDoneFor(new ResourceID("blog", "team-a"), Map.of());
        assertThat(metrics.scrape().lines()).contains("workqueue_depth{name=\"web-app\"} 0.0");
    }

    @Test
    void aRetryIsAFailedReconcileScheduledAgain() {
        assertThat(metrics.scrape().lines()).contains("workqueue_retries_total{name=\"web-app\"} 0.0");

        queue.failedReconciliation(primary("shop"), new IllegalStateException("500"), Map.of());
        queue.failedReconciliation(primary("shop"), new IllegalStateException("500"), Map.of());

        assertThat(metrics.scrape().lines()).contains("workqueue_retries_total{name=\"web-app\"} 2.0");
    }

    @Test
    void eachBundleHasItsOwnQueueAndGetsTheSameOneBack() {
        metrics.controllerMetrics("blog").receivedEvent(eventFor("b"), Map.of());
        queue.receivedEvent(eventFor("shop"), Map.of());

        assertThat(metrics.controllerMetrics("web-app")).isSameAs(queue);
        assertThat(metrics.scrape().lines()).contains(
                "workqueue_depth{name=\"web-app\"} 1.0",
                "workqueue_depth{name=\"blog\"} 1.0");
    }
}
