package dev.runbook.operator.record;

import dev.runbook.engine.apply.Outcome;
import dev.runbook.operator.act.AppliedAction;
import dev.runbook.operator.error.Reasons;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code RunbookApplied} condition the operator keeps on every primary: True when the last
 * cycle's plan was applied, False when it was not, with a reason saying why (see {@link Reasons}).
 */
public record RunbookCondition(String status, String reason, String message) {
    public static final String TYPE = "RunbookApplied";

    public static RunbookCondition of(CycleReport report) {
        if (report.failure() != null) {
            return new RunbookCondition("False", report.failure().reason(), report.failure().describe());
        }
        int planned = report.decision() == null ? 0 : report.decision().actions().size();
        if (report.paused()) {
            return new RunbookCondition("False", Reasons.PAUSED, "the annotation runbook.dev/paused is \"true\": "
                    + actions(planned) + " planned, none applied; remove the annotation to resume");
        }
        if (!report.acting()) {
            return new RunbookCondition("False", Reasons.OBSERVING, "observe mode: " + actions(planned)
                    + " planned, none applied; the plan is in status.lastCycle");
        }
        return new RunbookCondition("True", Reasons.APPLIED, actions(report.applied().size()) + counts(report));
    }

    public boolean isWarning() {
        return status.equals("False") && !reason.equals(Reasons.PAUSED) && !reason.equals(Reasons.OBSERVING);
    }

    private static String actions(int count) {
        return count + (count == 1 ? " action" : " actions");
    }

    private static String counts(CycleReport report) {
        if (report.applied().isEmpty()) return "";
        Map<Outcome, Integer> byOutcome = new EnumMap<>(Outcome.class);
        for (AppliedAction applied : report.applied()) byOutcome.merge(applied.outcome(), 1, Integer::sum);
        StringBuilder text = new StringBuilder(":");
        byOutcome.forEach((outcome, count) -> text.append(text.length() > 1 ? ", " : " ").append(count).append(' ')
                .append(outcome == Outcome.NONE ? "unchanged" : outcome.name().toLowerCase(Locale.ROOT)));
        return text.toString();
    }
}
