package dev.runbook.instance.decide;

/**
 * The outcome of one pass: the step, whom it concerns ({@code upstream}, for a standby), why, and
 * what the instance reports meanwhile: readiness for the pod's probe, and its role
 * ({@code reportedRole}: primary, replica, fenced or "" for nothing yet).
 */
public record Decision(Step step, String upstream, String why, boolean ready, String reportedRole) {

    static Decision waiting(String why, boolean ready, String reportedRole) {
        return new Decision(Step.WAIT, "", why, ready, reportedRole);
    }

    static Decision of(Step step, String upstream, String why) {
        return new Decision(step, upstream, why, false, "");
    }

    static Decision refuse(String why) {
        return new Decision(Step.REFUSE, "", why, false, "");
    }
}
