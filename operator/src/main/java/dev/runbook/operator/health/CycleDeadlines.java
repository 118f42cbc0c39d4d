package dev.runbook.operator.health;

import dev.runbook.engine.containment.ContainmentLimits;
import dev.runbook.operator.cycle.CycleListener;
import dev.runbook.operator.error.Reasons;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.rules.fact.Primary;

/**
 * Tells a {@link DeadlineReport} how each cycle ended: stopped by its rule budget (deadline, memory or
 * stack: the {@link Reasons#RULE_STOPPED} failure), or within it. This is what makes liveness fail when
 * cycles are stopped again and again.
 */
public final class CycleDeadlines implements CycleListener {
    private final DeadlineReport report;

    public CycleDeadlines(DeadlineReport report) {
        this.report = report;
    }

    @Override
    public void cycleRecorded(Primary primary, CycleReport cycle) {
        String work = "cycle of " + primary.getKind() + " " + primary.getNamespace() + "/" + primary.getName();
        if (cycle.failure() != null && Reasons.RULE_STOPPED.equals(cycle.failure().reason())) {
            report.exceeded(work, ContainmentLimits.standard().cycleDeadline());
        } else {
            report.withinDeadline(work);
        }
    }
}
