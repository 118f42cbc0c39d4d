package dev.runbook.instance.decide;

import dev.runbook.postgres.contract.Role;
import java.util.Set;

/**
 * The outcome of one pass: the step, whom it concerns ({@code upstream}, for a standby), the value a
 * {@link Step#SET_SYNCHRONOUS} sets ({@code standbyNames}), the slots {@link Step#SYNC_SLOTS} keeps ({@code slots}), why, and
 * what the instance reports meanwhile: readiness for the pod's probe, and its role
 * ({@code reportedRole}: primary, replica, fenced or "" for nothing yet).
 */
public record Decision(Step step, String upstream, String standbyNames, String why, boolean ready, String reportedRole, Set<String> slots) {

    /** synchronous_standby_names under spec.replication.synchronous: every commit waits for one standby's flush. */
    public static final String SYNCHRONOUS = "ANY 1 (*)";

    public Decision(Step step, String upstream, String standbyNames, String why, boolean ready, String reportedRole) {
        this(step, upstream, standbyNames, why, ready, reportedRole, Set.of());
    }

    static Decision waiting(String why, boolean ready, String reportedRole) {
        return new Decision(Step.WAIT, "", "", why, ready, reportedRole);
    }

    static Decision of(Step step, String upstream, String why) {
        return new Decision(step, upstream, "", why, false, "");
    }

    static Decision refuse(String why) {
        return new Decision(Step.REFUSE, "", "", why, false, "");
    }

    /** The primary, at work and ready, doing what keeps the others able to follow it. */
    static Decision upkeep(Step step, String why, Set<String> slots) {
        return new Decision(step, "", "", why, true, Role.PRIMARY, slots);
    }
}
