package dev.runbook.operator.metrics;

import dev.runbook.operator.record.CycleReport;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;

/**
 * The reconcile meters under the names controller-runtime gives them, so that dashboards and alerts
 * written for Go operators work unchanged (docs/metrics.md#controller-runtime-names):
 * {@code controller_runtime_reconcile_total{controller,result}},
 * {@code controller_runtime_reconcile_errors_total{controller}} and
 * {@code controller_runtime_reconcile_time_seconds{controller}}. The controller is the bundle: the
 * operator runs one controller per bundle.
 */
final class ControllerRuntimeMeters {
    static final String RECONCILE = "controller.runtime.reconcile";
    static final String RECONCILE_ERRORS = "controller.runtime.reconcile.errors";
    static final String RECONCILE_TIME = "controller.runtime.reconcile.time";

    /** controller-runtime's result of a reconcile that returned an error (and is retried). */
    static final String ERROR = "error";
    /** controller-runtime's result of a reconcile that returned no error and asked for no requeue. */
    static final String SUCCESS = "success";
    /** controller-runtime's result of a reconcile that asked to run again at once ({@code Requeue: true}). */
    static final String REQUEUE = "requeue";
    /** controller-runtime's result of a reconcile that asked to run again after a delay ({@code RequeueAfter}). */
    static final String REQUEUE_AFTER = "requeue_after";

    /** controller-runtime's default buckets for the reconcile time, in seconds (0.005 to 10 and up to 60). */
    private static final Duration[] BUCKETS = {
            Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
            Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
            Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(15),
            Duration.ofSeconds(30), Duration.ofSeconds(60)};

    private final MeterRegistry registry;

    ControllerRuntimeMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * One reconcile. A cycle that failed is an {@code error}, as a Go reconciler returning an error; a
     * refused plan is not: the cycle reported it in status and events and is not retried for it.
     */
    void record(CycleReport report) {
        String controller = TagValue.of(report.bundle());
        boolean failed = CycleMeters.FAILED.equals(CycleMeters.outcome(report));
        Counter.builder(RECONCILE)
                .description("Total number of reconciliations per controller (controller-runtime's name)")
                .tags("controller", controller, "result", failed ? ERROR : result(report))
                .register(registry)
                .increment();
        Counter errors = Counter.builder(RECONCILE_ERRORS)
                .description("Total number of reconciliation errors per controller (controller-runtime's name)")
                .tag("controller", controller)
                .register(registry);
        if (failed) errors.increment();
        Timer.builder(RECONCILE_TIME)
                .description("Length of time per reconciliation per controller (controller-runtime's name)")
                .tag("controller", controller)
                .serviceLevelObjectives(BUCKETS)
                .register(registry)
                .record(report.took() == null ? Duration.ZERO : report.took());
    }

    /**
     * The result of a cycle that did not fail, from the {@code requeue} actions of its plan, which the
     * cycle obeys whatever its mode ({@code ReconcileCycle}): the soonest one of {@code 0s} is
     * {@code requeue}, a later one {@code requeue_after}. Neither the bundle's {@code reconcilePeriod}
     * (the counterpart of controller-runtime's resync period, not a result) nor the short settle delay
     * after a cycle that changed something is a requeue a rule asked for: those cycles are a {@code success}.
     * A refused plan is applied in no part, its requeue included.
     */
    private static String result(CycleReport report) {
        if (report.decision() == null || report.failure() != null) return SUCCESS;
        return report.decision().requeueAfter()
                .map(after -> after.isZero() ? REQUEUE : REQUEUE_AFTER)
                .orElse(SUCCESS);
    }
}
