package dev.runbook.instance.decide;

/**
 * The outcome of one pass: the step, whom it concerns ({@code upstream}, for a standby), the value a
 * {@link Step#SET_SYNCHRONOUS} sets ({@code standbyNames}), why, and
 * what the instance reports meanwhile: readiness for the pod's probe, and its role
 * ({@code reportedRole}: primary, replica, fenced or "" for nothing yet).
 */
public record Decision(Step step, String upstream, String standbyNames, String why, boolean ready, String reportedRole) {

    /** synchronous_standby_names under spec.replication.synchronous: every commit waits for one standby's flush. */
    public static final String SYNCHRONOUS = "ANY 1 (*)";

    static Decision waiting(String why, boolean ready, String reportedRole) {
        return new Decision(Step.WAIT, "", "", why, ready, reportedRole);
    }

    static Decision of(Step step, String upstream, String why) {
        return new Decision(step, upstream, "", why, false, "");
    }

    static Decision refuse(String why) {
        return new Decision(Step.REFUSE, "", "", why, false, "");
    }
}
