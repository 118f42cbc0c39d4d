package dev.runbook.operator.record;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The per-condition {@code observedGeneration} of one primary kind: each condition a cycle set (the
 * bundle's {@code setCondition} actions on the primary and {@code RunbookApplied}) carries the
 * {@code metadata.generation} of the primary that cycle observed, as Kubernetes' condition convention
 * asks. Conditions the cycle did not set keep theirs.
 *
 * <p>Only while the kind's CRD keeps the field. A CRD whose condition schema does not declare it
 * (and does not preserve unknown fields) makes the API server prune it on every write; the record
 * phase compares its desired status with the cached one, so writing it there would write the status
 * again on every cycle. The operator does not read CRDs (it has no right to), and a bundle's
 * ConfigMap carries no CRD, so the API server's answer is what tells: when a status write that
 * carried the field comes back without it, the kind's CRD prunes it and it is not written again in
 * this process. That costs at most the first write per kind (and the writes of cycles already
 * running), never a loop. One instance per bundle controller, shared by its reconcile threads.
 */
final class ConditionGenerations {
    static final String FIELD = "observedGeneration";
    private static final Logger LOG = LoggerFactory.getLogger(ConditionGenerations.class);

    private final String kind;
    private volatile boolean pruned;

    ConditionGenerations(String kind) {
        this.kind = kind;
    }

    /** Whether the kind's CRD was seen to drop the field, so it is no longer written. */
    boolean pruned() {
        return pruned;
    }

    /**
     * {@code status} with {@code observedGeneration} set to {@code generation} on the conditions whose
     * type is in {@code types}; {@code status} itself when the field is pruned or there are no conditions.
     */
    Map<String, Object> stamp(Map<String, Object> status, Set<String> types, long generation) {
        if (pruned || !(status.get("conditions") instanceof List<?> conditions)) return status;
        List<Object> stamped = new ArrayList<>(conditions.size());
        for (Object item : conditions) {
            if (item instanceof Map<?, ?> condition && types.contains(condition.get("type"))) {
                Map<Object, Object> copy = new LinkedHashMap<>(condition);
                copy.put(FIELD, generation);
                stamped.add(copy);
            } else {
                stamped.add(item);
            }
        }
        Map<String, Object> result = new LinkedHashMap<>(status);
        result.put("conditions", stamped);
        return result;
    }

    /**
     * Learns from a status write: when a condition {@code sent} carried the field on comes back in
     * {@code written} (the object the API server stored) without it, the CRD prunes it.
     *
     * @param sent    the status the merge patch carried
     * @param written the whole object the API server answered with
     */
    void learn(Map<String, Object> sent, Map<String, Object> written) {
        if (pruned || !(sent.get("conditions") instanceof List<?> sentConditions)) return;
        Map<Object, Map<?, ?>> stored = new LinkedHashMap<>();
        if (written.get("status") instanceof Map<?, ?> status && status.get("conditions") instanceof List<?> list) {
            for (Object item : list) {
                if (item instanceof Map<?, ?> condition) stored.put(condition.get("type"), condition);
            }
        }
        for (Object item : sentConditions) {
            if (!(item instanceof Map<?, ?> condition) || !condition.containsKey(FIELD)) continue;
            Map<?, ?> kept = stored.get(condition.get("type"));
            if (kept != null && !kept.containsKey(FIELD)) {
                pruned = true;
                LOG.warn("{}: the API server drops status.conditions[].{} (the CRD's condition schema does not declare it), "
                        + "so the operator stops writing it; declare '{}: {type: integer}' in the conditions' items "
                        + "to have it (docs/operations.md#what-the-operator-writes-on-each-resource)", kind, FIELD, FIELD);
                return;
            }
        }
    }
}
