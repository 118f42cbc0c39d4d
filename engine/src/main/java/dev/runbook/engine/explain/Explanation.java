package dev.runbook.engine.explain;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Why a rule did or did not fire in one decision, as {@code runbook why --rule} prints it.
 *
 * @param rule       the rule's name
 * @param where      its file and line
 * @param firings    the facts each of its firings matched (empty: it did not fire)
 * @param verdict    one sentence: what stopped it, or that it fired
 * @param conditions each condition evaluated, in order, up to the first that did not hold (maps, for YAML)
 * @param notReached the conditions after that one, as written
 */
public record Explanation(String rule, String where, List<List<String>> firings, String verdict,
                          List<Map<String, Object>> conditions, List<String> notReached) {
    public Explanation {
        firings = List.copyOf(firings);
        conditions = List.copyOf(conditions);
        notReached = List.copyOf(notReached);
    }

    public boolean fired() { return !firings.isEmpty(); }

    /** The YAML form. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("rule", rule);
        map.put("at", where);
        map.put("fired", firings.size());
        map.put("verdict", verdict);
        if (fired()) {
            map.put("matched", firings);
            return map;
        }
        map.put("conditions", conditions);
        if (!notReached.isEmpty()) map.put("notReached", notReached);
        return map;
    }
}
