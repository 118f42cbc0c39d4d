package dev.runbook.rules.fact;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/** One entry of an object's {@code status.conditions}, as Kubernetes writes it. */
public final class Condition {
    private final String type;
    private final String status;
    private final String reason;
    private final String message;
    private final Instant lastTransitionTime;

    public Condition(String type, String status, String reason, String message, Instant lastTransitionTime) {
        this.type = type;
        this.status = status;
        this.reason = reason == null ? "" : reason;
        this.message = message == null ? "" : message;
        this.lastTransitionTime = lastTransitionTime;
    }

    static Condition fromMap(Map<?, ?> map) {
        Object time = map.get("lastTransitionTime");
        return new Condition(
                Values.asString(map.get("type")),
                status(map.get("status")),
                Values.asString(map.get("reason")),
                Values.asString(map.get("message")),
                time == null ? null : Values.asInstant(time, "lastTransitionTime"));
    }

    /** A status written unquoted in YAML ({@code status: True}) arrives as a boolean: it means the same. */
    private static String status(Object value) {
        if (value instanceof Boolean bool) return bool ? "True" : "False";
        return Values.asString(value);
    }

    public String getType() { return type; }
    public String getStatus() { return status; }
    public String getReason() { return reason; }
    public String getMessage() { return message; }
    /** When the status last changed; {@code null} when the object does not say. */
    public Instant getLastTransitionTime() { return lastTransitionTime; }

    public boolean isTrue() { return "True".equals(status); }
    public boolean isFalse() { return "False".equals(status); }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Condition c)) return false;
        return Objects.equals(type, c.type) && Objects.equals(status, c.status) && reason.equals(c.reason)
                && message.equals(c.message) && Objects.equals(lastTransitionTime, c.lastTransitionTime);
    }

    @Override
    public int hashCode() { return Objects.hash(type, status, reason, message, lastTransitionTime); }

    @Override
    public String toString() { return type + "=" + status + (reason.isEmpty() ? "" : " (" + reason + ")"); }
}
