package dev.runbook.rules.action;

import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.function.Durations;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Run the next cycle for the target after this long. Several requeues never conflict: the soonest wins. */
public final class Requeue extends Action {
    private final Duration after;

    public Requeue(ObjectRef target, Duration after) {
        super(target);
        if (after == null || after.isNegative()) {
            throw new IllegalArgumentException("requeue of " + target + " needs a duration of zero or more");
        }
        this.after = after;
    }

    @Override public String getType() { return "requeue"; }
    public Duration getAfter() { return after; }

    @Override
    protected String intentKey() { return Durations.format(after); }

    @Override
    public List<FieldWrite> writes() { return List.of(); }

    @Override
    protected void describe(Map<String, Object> into) { into.put("after", Durations.format(after)); }
}
