package dev.runbook.testkit.simulation;

import dev.runbook.engine.apply.Json;
import dev.runbook.engine.apply.KubeObject;
import dev.runbook.rules.fact.ObjectRef;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static dev.runbook.testkit.simulation.SimulatedControllers.JOB_CONTROLLER;

/**
 * The Job controller of the simulated cluster, up to the point where a test decides a Job's outcome:
 * an unfinished Job is active; {@link #finishJob} records its success or failure.
 */
final class JobController {
    private final Cluster cluster;

    JobController(Cluster cluster) {
        this.cluster = cluster;
    }

    boolean syncJobs() {
        boolean changed = false;
        for (Map<String, Object> job : cluster.list("Job")) {
            if (finishedAs(job) != null) continue;
            Map<String, Object> updated = Json.copyMap(job, "job");
            Map<String, Object> status = Json.child(updated, "status", KubeObject.refOf(job) + " status");
            status.put("active", 1);
            status.putIfAbsent("startTime", ObjectFields.creationTime(job, Instant.EPOCH).toString());
            if (!Json.same(updated, job)) {
                cluster.put(updated);
                changed = true;
            }
        }
        return changed;
    }

    /** "Complete" or "Failed" when the Job has that condition True, else null. */
    private static String finishedAs(Map<String, Object> job) {
        Object conditions = Json.mapAt(job, "status") == null ? null : Json.mapAt(job, "status").get("conditions");
        if (conditions instanceof List<?> list) {
            for (Object item : list) {
                if (item instanceof Map<?, ?> c && "True".equals(c.get("status"))
                        && ("Complete".equals(c.get("type")) || "Failed".equals(c.get("type")))) {
                    return (String) c.get("type");
                }
            }
        }
        return null;
    }

    /**
     * The Job finished at {@code now}, succeeded or failed; nothing when it already finished so.
     *
     * @throws IllegalStateException when the Job already finished the other way
     */
    void finishJob(ObjectRef ref, Instant now, boolean succeeded) {
        Objects.requireNonNull(now, "now");
        String what = succeeded ? "jobSucceeds" : "jobFails";
        Map<String, Object> job = ObjectFields.existing(cluster, ref, "Job", what);
        String outcome = succeeded ? "Complete" : "Failed";
        String finished = finishedAs(job);
        if (outcome.equals(finished)) return;
        if (finished != null) {
            throw new IllegalStateException(what + ": " + ref + " already finished (" + finished + ")");
        }
        Map<String, Object> changed = Json.copyMap(job, "job");
        Map<String, Object> status = Json.child(changed, "status", ref + " status");
        status.remove("active");
        status.putIfAbsent("startTime", ObjectFields.creationTime(job, now).toString());
        status.put(succeeded ? "succeeded" : "failed", 1);
        if (succeeded) status.put("completionTime", now.toString());
        Map<String, Object> condition = new LinkedHashMap<>();
        condition.put("type", outcome);
        condition.put("status", "True");
        if (!succeeded) {
            condition.put("reason", "BackoffLimitExceeded");
            condition.put("message", "Job has reached the specified backoff limit");
        }
        condition.put("lastProbeTime", now.toString());
        condition.put("lastTransitionTime", now.toString());
        ObjectFields.conditions(status, ref).add(condition);
        cluster.put(changed);
        if (succeeded) {
            cluster.recordEvent(ref, "Normal", "Completed", "Job completed", JOB_CONTROLLER);
        } else {
            cluster.recordEvent(ref, "Warning", "BackoffLimitExceeded", "Job has reached the specified backoff limit", JOB_CONTROLLER);
        }
    }
}
