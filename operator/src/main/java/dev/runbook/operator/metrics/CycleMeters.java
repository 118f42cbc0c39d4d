package dev.runbook.operator.metrics;

import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.Firing;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.operator.act.AppliedAction;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.rules.fact.Primary;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns one cycle's report into the cycle timer and the firing, action and plan-problem counters.
 *
 * <p>No tag names a primary: a cluster may hold thousands of them, and every distinct tag value is a
 * series Prometheus keeps. Bundle, kind, mode, outcome, rule and action type are bounded by the
 * bundles the operator runs.
 */
final class CycleMeters {
    static final String CYCLES = "runbook.cycles";
    static final String FIRINGS = "runbook.rule.firings";
    static final String ACTIONS = "runbook.actions";
    static final String PLAN_CONFLICTS = "runbook.plan.conflicts";
    static final String FAILURES = "runbook.cycle.failures";

    /** The cycle outcome of a plan that the check refused. */
    static final String REFUSED = "refused";
    /** The cycle outcome of any other failure, and the action outcome of the action that failed. */
    static final String FAILED = "failed";
    static final String OK = "ok";
    /** The action outcome of a plan that observe mode or the pause switch kept from being applied. */
    static final String PLANNED = "planned";

    /**
     * Buckets of the cycle timer. A cycle decides in about a millisecond (see performance-log.md); what
     * takes longer is writing to the API server, so the buckets reach from there to seconds, where a
     * slow or throttled API server shows.
     */
    private static final Duration[] CYCLE_BUCKETS = {
            Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
            Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5),
            Duration.ofSeconds(10)};

    private final MeterRegistry registry;

    CycleMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    void record(Primary primary, CycleReport report) {
        String bundle = report.bundle();
        Decision decision = report.decision();

        // ReconcileCycle always measures; a report made without a duration still counts as a cycle.
        Duration took = report.took() == null ? Duration.ZERO : report.took();
        cycleTimer(bundle, primary == null ? null : primary.getKind(), report.modeName(), outcome(report)).record(took);

        if (decision != null) {
            countFirings(bundle, decision);
            if (!decision.isValid()) {
                conflicts(bundle).increment(decision.problems().size());
            } else if (!report.acting()) {
                for (PlannedAction action : decision.actions()) action(bundle, action, PLANNED);
            }
        }
        for (AppliedAction applied : report.applied()) {
            action(bundle, applied.planned(), applied.outcome().name().toLowerCase(Locale.ROOT));
        }
        if (report.failedAction() != null) action(bundle, report.failedAction(), FAILED);
        if (report.failure() != null) {
            Counter.builder(FAILURES)
                    .description("Cycles that failed, by the failure's reason (the RunbookApplied condition's)")
                    .tag("bundle", TagValue.of(bundle))
                    .tag("reason", report.failure().reason())
                    .register(registry)
                    .increment();
        }
    }

    /** {@code refused} for a plan the check refused, {@code failed} for any other failure, else {@code ok}. */
    static String outcome(CycleReport report) {
        if (report.decision() != null && !report.decision().isValid()) return REFUSED;
        return report.failure() != null ? FAILED : OK;
    }

    /**
     * One increment per firing. A firing whose actions were withdrawn later in the cycle still fired:
     * the rule ran, which is what this counter is for. Firings are summed per rule first, so a cycle
     * where one rule fires many times looks its counter up once.
     */
    private void countFirings(String bundle, Decision decision) {
        Map<String, Integer> perRule = new TreeMap<>();
        for (Firing firing : decision.firings()) perRule.merge(TagValue.of(firing.rule()), 1, Integer::sum);
        perRule.forEach((rule, count) -> Counter.builder(FIRINGS)
                .description("Rule firings, per rule")
                .tags("bundle", TagValue.of(bundle), "rule", rule)
                .register(registry)
                .increment(count));
    }

    /** The bundle's count of plan problems; registered at 0 when the bundle starts, so that increase() sees the first. */
    Counter conflicts(String bundle) {
        return Counter.builder(PLAN_CONFLICTS)
                .description("Problems the plan check found in refused plans: conflicts, limits, boundaries")
                .tag("bundle", TagValue.of(bundle))
                .register(registry);
    }

    private void action(String bundle, PlannedAction action, String outcome) {
        // The action's YAML word (setStatus, apply, ...): the name the plan and docs/reference/actions.md use.
        Counter.builder(ACTIONS)
                .description("Actions of plans, by type and by what became of them")
                .tags("bundle", TagValue.of(bundle), "type", TagValue.of(action.action().getType()), "outcome", outcome)
                .register(registry)
                .increment();
    }

    private Timer cycleTimer(String bundle, String kind, String mode, String outcome) {
        return Timer.builder(CYCLES)
                .description("Reconcile cycles, by how they ended, and how long they took up to the record phase")
                .tags("bundle", TagValue.of(bundle), "kind", TagValue.of(kind), "mode", TagValue.of(mode), "outcome", outcome)
                .serviceLevelObjectives(CYCLE_BUCKETS)
                .register(registry);
    }
}
