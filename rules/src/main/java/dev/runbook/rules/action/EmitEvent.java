package dev.runbook.rules.action;

import dev.runbook.rules.fact.ObjectRef;

import java.util.List;
import java.util.Map;

/** A Kubernetes event about the target. Events write no field, so they never conflict. */
public final class EmitEvent extends Action {
    private final String eventType;
    private final String reason;
    private final String message;

    public EmitEvent(ObjectRef target, String eventType, String reason, String message) {
        super(target);
        if (!"Normal".equals(eventType) && !"Warning".equals(eventType)) {
            throw new IllegalArgumentException("event on " + target + ": type '" + eventType + "' must be Normal or Warning");
        }
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("event on " + target + " needs a reason, e.g. FailoverStarted");
        }
        this.eventType = eventType;
        this.reason = reason;
        this.message = message == null ? "" : message;
    }

    @Override public String getType() { return "event"; }
    public String getEventType() { return eventType; }
    public String getReason() { return reason; }
    public String getMessage() { return message; }

    @Override
    protected String intentKey() { return eventType + " " + reason + " " + message; }

    @Override
    public List<FieldWrite> writes() { return List.of(); }

    @Override
    protected void describe(Map<String, Object> into) {
        into.put("eventType", eventType);
        into.put("reason", reason);
        into.put("message", message);
    }
}
