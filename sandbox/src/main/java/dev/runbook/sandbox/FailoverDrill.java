package dev.runbook.sandbox;

import dev.runbook.postgres.contract.PostgresContract;
import dev.runbook.rules.fact.ObjectPath;
import dev.runbook.rules.fact.ObjectRef;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.runbook.sandbox.Sandbox.display;

/**
 * postgres-cluster's drill, in Java rather than a {@code sandbox.yaml}: the instance managers' reports
 * (the WAL each pod has replayed, the promoted pod saying it is the primary) answer what the operator
 * did a moment before, which the declarative steps of {@link DrillRunner} do not express.
 */
public final class FailoverDrill {
    /** The primary kind this drill is written for. */
    public static final String KIND = PostgresContract.KIND;
    /** The sample it applies, in the bundle directory. */
    public static final String SAMPLE = "samples/cluster.yaml";
    /** The WAL position the primary reports, 0/3000000: the replicas are a little behind it. */
    static final long PRIMARY_LSN = 50_331_648L;
    /** What the furthest replica has replayed. */
    static final long BEST_LSN = PRIMARY_LSN - 8;
    /** What the other replicas have replayed. */
    static final long BEHIND_LSN = PRIMARY_LSN - 48;

    private final Sandbox sandbox;

    public FailoverDrill(Sandbox sandbox) {
        this.sandbox = sandbox;
    }

    /**
     * Applies the sample, waits for Healthy, then runs the failover drill: the primary stops being
     * ready, the clock passes the failover delay, the best replica is promoted, the old primary
     * returns as a replica, Healthy again. Prints the timeline and a closing summary line.
     *
     * @throws NotConvergedException when a stage does not converge within the timeout
     */
    public void run(PrintWriter out) {
        Timeline timeline = sandbox.timeline();
        SandboxClock clock = sandbox.clock();
        ObjectRef cluster = sandbox.primary();
        Sandbox.Options options = sandbox.options();
        Map<String, Object> sample = sandbox.sample();
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = new LinkedHashMap<>((Map<String, Object>) sample.getOrDefault("spec", Map.of()));
        boolean hadBackup = spec.remove("backup") != null;
        spec.put("failoverDelay", Sandbox.seconds(options.failoverDelay()));
        sample.put("spec", spec);
        timeline.note("apply " + display(sandbox.sampleFile()) + ": " + cluster.getKind() + " "
                + cluster.getNamespace() + "/" + cluster.getName() + ", with failoverDelay: " + Sandbox.seconds(options.failoverDelay())
                + (hadBackup ? " and without its backup schedule" : ""));
        sandbox.apply(sample);

        // Healthy needs the primary's own word: its instance manager reports what it runs as.
        Timeline.Seen chosen = sandbox.awaitCluster("the first ready instance to be chosen as the primary",
                seen -> ObjectPath.read(seen.primary(), "status.currentPrimary") != null
                        && "primary".equals(seen.roles().get(String.valueOf(ObjectPath.read(seen.primary(), "status.currentPrimary")))));
        String first = String.valueOf(ObjectPath.read(chosen.primary(), "status.currentPrimary"));
        timeline.note(first + " initialises the database and reports it runs as primary (" + PostgresContract.REPORTED_ROLE
                + "), as the instance manager would");
        sandbox.annotatePod(first, PostgresContract.REPORTED_ROLE, "primary");
        Timeline.Seen healthy = sandbox.awaitCluster("the cluster to bootstrap to Healthy", FailoverDrill::converged);
        Duration bootstrap = timeline.elapsed();
        String primary = String.valueOf(ObjectPath.read(healthy.primary(), "status.currentPrimary"));
        List<String> replicas = Sandbox.withRole(healthy, "replica");
        timeline.milestone("Healthy: " + primary + " is the primary, " + String.join(" and ", replicas)
                + (replicas.size() == 1 ? " is the replica" : " the replicas"));
        if (replicas.isEmpty()) {
            timeline.note("no failover drill: the cluster has no replica");
            sandbox.summary(out, "bootstrapped to Healthy in " + Sandbox.seconds(bootstrap) + "; no failover drill without a replica");
            return;
        }

        // The instance manager in each pod reports how far it has replayed the WAL. The replica last in
        // name order is furthest ahead, so the choice is not the lowest ordinal (the tie-breaker).
        String best = replicas.get(replicas.size() - 1);
        Map<String, Long> lsn = new LinkedHashMap<>();
        lsn.put(primary, PRIMARY_LSN);
        for (String replica : replicas) lsn.put(replica, replica.equals(best) ? BEST_LSN : BEHIND_LSN);
        List<String> reported = new ArrayList<>();
        lsn.forEach((pod, position) -> {
            sandbox.annotatePod(pod, PostgresContract.REPLAYED_LSN, String.valueOf(position));
            reported.add(pod + " " + position);
        });
        timeline.note("the instances report the WAL they have replayed (" + PostgresContract.REPLAYED_LSN + "): " + String.join(", ", reported));

        timeline.note("failover drill: " + primary + ", the primary, stops being ready (the kubelet turns its Ready condition False)");
        sandbox.worldChange(() -> sandbox.simulated().podNotReady(sandbox.pod(primary), clock.instant()));
        sandbox.awaitCluster("the cluster to see that " + primary + " is not ready",
                seen -> List.of("Degraded", "FailingOver").contains(phase(seen)));

        Duration skip = options.failoverDelay().plusSeconds(1);
        clock.advance(skip);
        timeline.note("the clock jumps " + Sandbox.seconds(skip) + " ahead, past the failover delay of "
                + Sandbox.seconds(options.failoverDelay()) + " (the operator and the simulated controllers share it; nobody waits)");
        // Something for the operator to notice now (the replicas go on reporting), rather than at its
        // next requeue: another replica has caught up a little, still behind the best one.
        String other = replicas.size() > 1 ? replicas.get(0) : best;
        long caughtUp = replicas.size() > 1 ? BEHIND_LSN + 32 : BEST_LSN;
        sandbox.annotatePod(other, PostgresContract.REPLAYED_LSN, String.valueOf(caughtUp));
        timeline.note(other + " reports it has replayed " + caughtUp);
        Instant failoverStarted = clock.instant();

        sandbox.awaitCluster("the failover to start and fence " + primary,
                seen -> best.equals(ObjectPath.read(seen.primary(), "status.targetPrimary"))
                        && "fenced".equals(seen.roles().get(primary)));
        timeline.note(best + " sees it is status.targetPrimary with " + primary + " fenced, promotes itself and reports it ("
                + PostgresContract.REPORTED_ROLE + ": primary), as the instance manager would");
        sandbox.annotatePod(best, PostgresContract.REPORTED_ROLE, "primary");
        sandbox.awaitCluster("the promotion of " + best + " to complete",
                seen -> best.equals(ObjectPath.read(seen.primary(), "status.currentPrimary"))
                        && "primary".equals(seen.roles().get(best)));
        Duration failover = Duration.between(failoverStarted, clock.instant());

        timeline.note(primary + " is ready again (rewound, it follows " + best + ", and reports " + PostgresContract.REPORTED_ROLE + ": replica)");
        sandbox.annotatePod(primary, PostgresContract.REPORTED_ROLE, "replica");
        sandbox.worldChange(() -> sandbox.simulated().podReady(sandbox.pod(primary), clock.instant()));
        Timeline.Seen again = sandbox.awaitCluster("the cluster to be Healthy again with " + best + " as the primary",
                seen -> converged(seen) && best.equals(ObjectPath.read(seen.primary(), "status.currentPrimary"))
                        && "replica".equals(seen.roles().get(primary)));
        timeline.milestone("Healthy again: " + best + " is the primary, " + String.join(" and ", Sandbox.withRole(again, "replica"))
                + " the replicas");
        sandbox.summary(out, "bootstrapped to Healthy in " + Sandbox.seconds(bootstrap) + "; failed over from " + primary + " to " + best
                + " in " + Sandbox.seconds(failover) + " once the failover delay had passed");
    }

    /** Healthy, and the last cycle found nothing left to change. */
    static boolean converged(Timeline.Seen seen) {
        return "Healthy".equals(Sandbox.phase(seen)) && seen.settled();
    }

    private static Object phase(Timeline.Seen seen) {
        return Sandbox.phase(seen);
    }
}
