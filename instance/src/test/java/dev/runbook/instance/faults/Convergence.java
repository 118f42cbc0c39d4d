package dev.runbook.instance.faults;

import io.fabric8.kubernetes.api.model.Pod;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a run ends on once its faults are healed: the cluster says Healthy, and the servers agree —
 * exactly one primary (labelled, recorded and out of recovery), and every other instance rejoined
 * (labelled replica, reporting replica, ready, and streaming from the primary in its
 * {@code pg_stat_replication}). {@link #unmet} says the first thing that does not hold yet.
 */
final class Convergence {
    private Convergence() {}

    static String unmet(FaultWorld world, int instances) {
        String phase = world.reads.status(FaultWorld.CLUSTER, "phase");
        if (!"Healthy".equals(phase)) {
            return "the phase is " + phase + ", not Healthy";
        }
        String current = world.currentPrimary();
        String target = world.reads.status(FaultWorld.CLUSTER, "targetPrimary");
        if (!current.equals(target)) {
            return "a promotion is recorded: currentPrimary " + current + ", targetPrimary " + target;
        }
        List<Pod> pods = world.pods();
        if (pods.size() != instances) {
            return pods.size() + " instance pods, not " + instances;
        }
        Set<String> replicas = new TreeSet<>();
        for (Pod p : pods) {
            String name = p.getMetadata().getName();
            String role = FaultWorld.label(p, FaultWorld.ROLE);
            String reported = FaultWorld.annotation(p, FaultWorld.REPORTED);
            String wanted = name.equals(current) ? "primary" : "replica";
            if (!wanted.equals(role) || !wanted.equals(reported)) {
                return name + " is labelled '" + role + "' and reports '" + reported + "', not " + wanted;
            }
            if (!ready(p)) {
                return name + " is not ready";
            }
            if (!name.equals(current)) {
                replicas.add(name);
            }
        }
        for (Pod p : pods) {
            String name = p.getMetadata().getName();
            Boolean primary = outOfRecovery(world, name);
            if (primary == null) {
                return "the server of " + name + " does not answer";
            }
            if (primary != name.equals(current)) {
                return "the server of " + name + (primary ? " runs out of recovery" : " is in recovery") + " while the primary is " + current;
            }
        }
        Set<String> streaming = streamingFrom(world, current);
        if (!streaming.equals(replicas)) {
            return current + "'s pg_stat_replication streams to " + streaming + ", not to " + replicas;
        }
        return "";
    }

    private static boolean ready(Pod p) {
        return p.getStatus() != null && p.getStatus().getConditions() != null
                && p.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** Whether the instance's server runs as a primary; null when it does not answer. */
    static Boolean outOfRecovery(FaultWorld world, String instance) {
        try (Connection c = Ledger.connect(world.port(instance), world.password); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select not pg_is_in_recovery()")) {
            r.next();
            return r.getBoolean(1);
        } catch (SQLException e) {
            return null;
        }
    }

    private static Set<String> streamingFrom(FaultWorld world, String primary) {
        Set<String> names = new TreeSet<>();
        try (Connection c = Ledger.connect(world.port(primary), world.password); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select application_name from pg_stat_replication where state = 'streaming'")) {
            while (r.next()) {
                names.add(r.getString(1));
            }
        } catch (SQLException e) {
            names.add("(no answer: " + e.getMessage() + ")");
        }
        return names;
    }
}
