package dev.runbook.rules.action;

import dev.runbook.rules.fact.ObjectRef;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The target's condition of this type should read so. Conditions are merged by type; the
 * transition time changes only when the status does (the operator keeps it).
 */
public final class SetCondition extends Action {
    private final String conditionType;
    private final String status;
    private final String reason;
    private final String message;

    public SetCondition(ObjectRef target, String conditionType, String status, String reason, String message) {
        super(target);
        if (conditionType == null || conditionType.isBlank()) {
            throw new IllegalArgumentException("setCondition on " + target + " needs a condition type, e.g. Ready");
        }
        if (status == null || !List.of("True", "False", "Unknown").contains(status)) {
            throw new IllegalArgumentException("setCondition " + conditionType + " on " + target + ": status '"
                    + status + "' must be True, False or Unknown");
        }
        this.conditionType = conditionType;
        this.status = status;
        this.reason = reason == null ? "" : reason;
        this.message = message == null ? "" : message;
    }

    @Override public String getType() { return "setCondition"; }
    public String getConditionType() { return conditionType; }
    public String getStatus() { return status; }
    public String getReason() { return reason; }
    public String getMessage() { return message; }

    @Override
    protected String intentKey() { return conditionType; }

    @Override
    public List<FieldWrite> writes() {
        return List.of(new FieldWrite(getTarget(), List.of("status", "conditions", conditionType), condition()));
    }

    private Map<String, Object> condition() {
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("type", conditionType);
        condition.put("status", status);
        condition.put("reason", reason);
        condition.put("message", message);
        return condition;
    }

    @Override
    protected void describe(Map<String, Object> into) { into.put("condition", condition()); }
}
