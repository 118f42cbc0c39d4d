package dev.runbook.rules.function;

import dev.runbook.rules.fact.Condition;
import dev.runbook.rules.fact.Resource;

import java.time.Instant;

/**
 * Times that observed objects carry about themselves (a condition's {@code lastTransitionTime}, a
 * deletion's request), and whether a rule may count from them. Another component wrote them with its own
 * clock: the node lifecycle controller a Node's {@code Unknown}, the kubelet a pod's {@code Ready}, the
 * API server a {@code deletionTimestamp}. A time is trusted when it is not after now: a time in the future
 * is a clock ahead of the operator's, or a lie, and is not used; the rule counts from when it first noticed
 * instead. So a clock that lies can make a delay start earlier (down to the operator's first notice, with
 * no delay left), never later than that notice (docs/runbooks/postgres-cluster.md#when-a-failure-began).
 */
public final class ObservedTimes {
    private ObservedTimes() {}

    /** The time, when it is not after {@code now}; else null. */
    public static Instant trusted(Instant observed, Instant now) {
        return observed == null || now == null || observed.isAfter(now) ? null : observed;
    }

    /** When the object's condition of this type last changed, when trusted; null without one. */
    public static Instant transition(Resource object, String type, Instant now) {
        if (object == null) return null;
        Condition condition = object.condition(type);
        return condition == null ? null : trusted(condition.getLastTransitionTime(), now);
    }

    /**
     * When the object's deletion was asked for, when trusted: its {@code deletionTimestamp} less its
     * {@code deletionGracePeriodSeconds} (the API server sets the timestamp to the request's time plus the
     * grace period); null when it is not being deleted.
     */
    public static Instant deletionRequested(Resource object, Instant now) {
        if (object == null || object.getDeletionTimestamp() == null) return null;
        long grace = Math.max(0, object.longValue("metadata.deletionGracePeriodSeconds", 0));
        return trusted(object.getDeletionTimestamp().minusSeconds(grace), now);
    }

    /** The earliest of the times that are not null; null when all are. */
    public static Instant earliest(Instant... times) {
        Instant earliest = null;
        for (Instant time : times) {
            if (time != null && (earliest == null || time.isBefore(earliest))) earliest = time;
        }
        return earliest;
    }

    /**
     * When a failure began: the earliest trusted observed time, and never later than when it was first
     * noticed ({@code noticed}, a time this runbook recorded; null or after {@code now}: now).
     */
    public static Instant since(Instant observed, Instant noticed, Instant now) {
        Instant first = noticed == null || noticed.isAfter(now) ? now : noticed;
        return observed != null && observed.isBefore(first) ? observed : first;
    }

    /** Whole seconds from {@code since} to {@code now}; 0 when since is not before now. */
    public static long secondsSince(Instant since, Instant now) {
        return since == null || !since.isBefore(now) ? 0 : java.time.Duration.between(since, now).getSeconds();
    }
}
