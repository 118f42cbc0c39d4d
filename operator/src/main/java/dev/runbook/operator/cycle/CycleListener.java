package dev.runbook.operator.cycle;

import dev.runbook.operator.record.CycleReport;
import dev.runbook.rules.fact.Primary;

/**
 * Told about every cycle once its record phase has run (even when writing the record failed): for metrics, and for tests that need to know that
 * a cycle ran even when it changed nothing. Called on the reconciling thread; must be quick and must
 * not throw.
 */
@FunctionalInterface
public interface CycleListener {
    CycleListener NONE = (primary, report) -> {};

    void cycleRecorded(Primary primary, CycleReport report);

    /** A cycle's rules start deciding, on the calling thread: liveness watches for a decision that never ends. */
    default void decisionStarted(Primary primary) {}

    /** The calling thread's decision ended, one way or another. */
    default void decisionEnded() {}

    /**
     * What the bundle's JOSDK controller reports its events, reconciles and retries to: the work-queue
     * meters of {@code OperatorMetrics}; nothing by default.
     */
    default io.javaoperatorsdk.operator.api.monitoring.Metrics controllerMetrics(String bundle) {
        return io.javaoperatorsdk.operator.api.monitoring.Metrics.NOOP;
    }

    /** Tells {@code first}, then {@code second}, everything. */
    static CycleListener both(CycleListener first, CycleListener second) {
        return new CycleListener() {
            @Override
            public void cycleRecorded(Primary primary, CycleReport report) {
                first.cycleRecorded(primary, report);
                second.cycleRecorded(primary, report);
            }

            @Override
            public void decisionStarted(Primary primary) {
                first.decisionStarted(primary);
                second.decisionStarted(primary);
            }

            @Override
            public void decisionEnded() {
                first.decisionEnded();
                second.decisionEnded();
            }

            @Override
            public io.javaoperatorsdk.operator.api.monitoring.Metrics controllerMetrics(String bundle) {
                return dev.runbook.operator.metrics.CombinedMetrics.of(first.controllerMetrics(bundle), second.controllerMetrics(bundle));
            }
        };
    }
}
