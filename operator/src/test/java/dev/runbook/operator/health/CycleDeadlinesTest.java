package dev.runbook.operator.health;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.operator.error.Failure;
import dev.runbook.operator.error.Reasons;
import dev.runbook.operator.record.CycleReport;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.runbook.operator.metrics.OperatorMetricsTest.APP;
import static dev.runbook.operator.metrics.OperatorMetricsTest.decision;
import static dev.runbook.operator.metrics.OperatorMetricsTest.report;
import static org.assertj.core.api.Assertions.assertThat;

class CycleDeadlinesTest {
    static final Failure STOPPED = new Failure(Failure.Kind.PERMANENT, Reasons.RULE_STOPPED,
            "rule 'Loop forever' exceeded its deadline", List.of("Loop forever"));
    static final Failure OTHER = new Failure(Failure.Kind.TEMPORARY, "Conflict", "409", List.of());

    @Test
    void cyclesStoppedByTheirBudgetAgainAndAgainFailLiveness() {
        DeadlineOverruns overruns = new DeadlineOverruns(3);
        CycleDeadlines cycles = new CycleDeadlines(overruns, dev.runbook.engine.policy.Policy.DEFAULT);
        for (int i = 0; i < 3; i++) cycles.cycleRecorded(APP, stopped(STOPPED));
        assertThat(overruns.problems()).singleElement().asString().contains("3 cycles or reloads in a row exceeded their deadline");
    }

    @Test
    void aCycleWithinItsBudgetOrFailingForAnotherReasonBreaksTheRun() {
        DeadlineOverruns overruns = new DeadlineOverruns(3);
        CycleDeadlines cycles = new CycleDeadlines(overruns, dev.runbook.engine.policy.Policy.DEFAULT);
        cycles.cycleRecorded(APP, stopped(STOPPED));
        cycles.cycleRecorded(APP, stopped(STOPPED));
        cycles.cycleRecorded(APP, stopped(OTHER));
        cycles.cycleRecorded(APP, stopped(STOPPED));
        assertThat(overruns.problems()).isEmpty();
    }

    /** What a bundle's rules did in a worker process stayed there: a run of stopped cycles does not get the operator restarted. */
    @Test
    void cyclesStoppedInAWorkerProcessDoNotCount() {
        DeadlineOverruns overruns = new DeadlineOverruns(3);
        CycleDeadlines cycles = new CycleDeadlines(overruns, dev.runbook.engine.policy.Policy.DEFAULT);
        CycleReport inProcess = stopped(STOPPED);
        CycleReport isolated = new CycleReport(inProcess.cycleId(), inProcess.bundle(), inProcess.bundleVersion(), inProcess.mode(),
                inProcess.paused(), inProcess.decision(), inProcess.applied(), inProcess.failedAction(), inProcess.failure(),
                inProcess.took(), true);
        for (int i = 0; i < 5; i++) cycles.cycleRecorded(APP, isolated);
        assertThat(overruns.problems()).isEmpty();
    }

    private static CycleReport stopped(Failure failure) {
        return report(BundleSpec.Mode.ENFORCE, false, decision(List.of()), List.of(), null, failure);
    }
}
