package dev.runbook.operator.health;

import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.cycle.CycleListener;
import dev.runbook.operator.error.Reasons;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.rules.fact.Primary;

/**
 * Tells a {@link DeadlineReport} how each cycle ended: stopped by its rule budget (deadline, memory or
 * stack: the {@link Reasons#RULE_STOPPED} failure), or within it. This is what makes liveness fail when
 * cycles are stopped again and again in the operator's own process. A cycle whose rules ran in a worker
 * process is not counted: whatever its rules did stayed in the worker, which is killed and replaced on
 * its own, and a bundle whose every cycle is stopped there must not get the operator restarted.
 */
public final class CycleDeadlines implements CycleListener {
    private final DeadlineReport report;
    private final Policy policy;

    /** @param policy the operator's: its cycle deadline is the one reported as exceeded */
    public CycleDeadlines(DeadlineReport report, Policy policy) {
        this.report = report;
        this.policy = policy;
    }

    @Override
    public void cycleRecorded(Primary primary, CycleReport cycle) {
        if (cycle.isolated()) return;
        String work = "cycle of " + primary.getKind() + " " + primary.getNamespace() + "/" + primary.getName();
        if (cycle.failure() != null && Reasons.RULE_STOPPED.equals(cycle.failure().reason())) {
            report.exceeded(work, policy.containment().cycleDeadline());
        } else {
            report.withinDeadline(work);
        }
    }
}
