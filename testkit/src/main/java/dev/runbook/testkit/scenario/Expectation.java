package dev.runbook.testkit.scenario;

import java.util.List;
import java.util.Map;

/**
 * What a scenario (or one step of a drill) expects of its cycle. Every part is optional; an
 * expectation with no part at all is refused when the file is read, since it could never fail.
 *
 * @param fired      rules that must have fired
 * @param notFired   rules that must not have fired
 * @param actions    each must match at least one planned action (as a subset of its YAML form)
 * @param absent     no planned action may match any of these
 * @param noActions  when true, the plan must be empty
 * @param valid      whether the plan must pass its check (default true)
 * @param problems   each must match a plan problem (kind, message, rules), subset-wise
 * @param status     must be a subset of the primary's status after the plan is applied
 * @param conditions each must match a condition of the primary after the plan is applied
 * @param primaryGone whether the primary must be gone (true) or still there (false) after the plan is
 *                    applied: a cleanup that released the last finalizer of a deleted primary
 */
public record Expectation(
        Located<List<String>> fired,
        Located<List<String>> notFired,
        List<Located<Map<String, Object>>> actions,
        List<Located<Map<String, Object>>> absent,
        Located<Boolean> noActions,
        Located<Boolean> valid,
        List<Located<Map<String, Object>>> problems,
        Located<Map<String, Object>> status,
        List<Located<Map<String, Object>>> conditions,
        Located<Boolean> primaryGone) {

    /** A value with the line of the scenario file it came from, for messages. */
    public record Located<T>(T value, int line) {}

    public boolean expectsValid() {
        return valid == null || Boolean.TRUE.equals(valid.value());
    }
}
