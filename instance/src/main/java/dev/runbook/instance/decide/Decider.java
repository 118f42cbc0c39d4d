package dev.runbook.instance.decide;

import dev.runbook.instance.local.DataState;
import dev.runbook.instance.local.LocalState;
import dev.runbook.instance.observe.Observation;
import dev.runbook.instance.observe.PeerPod;
import dev.runbook.instance.postgres.Lsn;

/**
 * The instance's side of the contract (docs/runbooks/postgres-cluster.md), as a pure function of
 * what the API server says and what the data directory and the server say. No I/O: the actor does
 * what it returns, and the next pass decides again from what that changed.
 */
public final class Decider {
    private final String self;
    private final boolean restoreConfigured;

    public Decider(String self) {
        this(self, false);
    }

    /** {@code restoreConfigured}: the pod names a backup to bootstrap from (RECOVERY_DESTINATION_PATH); initdb is then never chosen. */
    public Decider(String self, boolean restoreConfigured) {
        this.self = self;
        this.restoreConfigured = restoreConfigured;
    }

    public Decision decide(Observation seen, LocalState local) {
        if (!seen.podFound() || !seen.clusterFound()) {
            return Decision.waiting("my pod or my PostgresCluster is not there", false, "");
        }
        if (local.data() == DataState.FOREIGN) {
            return Decision.refuse("the data directory holds something that is not a PostgreSQL data directory; nothing is written over it");
        }
        if (local.running() && !local.answering()) {
            return Decision.waiting("the server is starting or stopping", false, "");
        }
        String role = seen.roleLabel();
        if ("fenced".equals(role)) {
            return fenced(seen, local);
        }
        if (self.equals(seen.targetPrimary()) && !self.equals(seen.currentPrimary()) && !seen.currentPrimary().isEmpty()) {
            return promotionTarget(seen, local);
        }
        if (self.equals(seen.currentPrimary())) {
            return currentPrimary(seen, local);
        }
        if ("replica".equals(role)) {
            return replica(seen, local);
        }
        if ("primary".equals(role)) {
            return Decision.waiting("labelled primary, but the cluster's primary is " + seen.currentPrimary() + "; waiting to be fenced or relabelled", false, "");
        }
        if (seen.currentPrimary().isEmpty() && seen.targetPrimary().isEmpty()) {
            // Before the first primary, the runbook chooses among the ready instances.
            return Decision.waiting("the cluster has no primary yet; ready to be chosen", local.data() == DataState.EMPTY, "");
        }
        return Decision.waiting("waiting for the runbook to give me a role", false, "");
    }

    /**
     * Fenced: no writes, at once. Once another instance is the cluster's primary, the contract asks a
     * fenced instance to rewind onto it, follow it and report {@code replica} while still fenced: the
     * runbook relabels it replica only then (so a pod labelled replica never runs as primary).
     */
    private Decision fenced(Observation seen, LocalState local) {
        String primary = seen.currentPrimary();
        boolean anotherIsPrimary = !primary.isEmpty() && !self.equals(primary);
        if (local.running() && !(anotherIsPrimary && local.inRecovery())) {
            return Decision.of(Step.STOP, "", "fenced: stopping the server (sessions ended, no more writes)");
        }
        if (anotherIsPrimary && local.data() == DataState.VALID) {
            Decision rejoin = replica(seen, local);
            // Until it follows, it stays ready and says it is fenced, as it did while it waited.
            return rejoin.step() == Step.WAIT && !rejoin.ready()
                    ? Decision.waiting("fenced; " + rejoin.why(), true, "fenced")
                    : rejoin;
        }
        return Decision.waiting("fenced; the server is stopped and the data kept", true, local.data() == DataState.VALID ? "fenced" : "");
    }

    private Decision currentPrimary(Observation seen, LocalState local) {
        if (local.data() == DataState.EMPTY) {
            if (!seen.primaryLsn().isEmpty()) {
                return Decision.refuse("I am the cluster's primary, but my data directory is empty while the cluster has had a primary"
                        + " (its last position " + seen.primaryLsn() + "); initdb would start a new, empty database: restore the volume,"
                        + " or switch over to a replica that has the data");
            }
            return restoreConfigured
                    ? Decision.of(Step.RESTORE, "", "named the first primary of a new cluster restored from a backup")
                    : Decision.of(Step.INITDB, "", "named the first primary of a new cluster");
        }
        if (!local.running()) {
            return Decision.of(Step.START_PRIMARY, "", "the primary's server is not running");
        }
        if (local.inRecovery()) {
            return Decision.of(Step.PROMOTE, "", "recorded as the current primary but still a standby");
        }
        String standbyNames = seen.synchronous() ? Decision.SYNCHRONOUS : "";
        if (!standbyNames.equals(local.standbyNames())) {
            return new Decision(Step.SET_SYNCHRONOUS, "", standbyNames, seen.synchronous()
                    ? "spec.replication.synchronous: every commit waits for a standby's flush" : "asynchronous replication", true, "primary");
        }
        return Decision.waiting("running as primary", true, "primary");
    }

    private Decision promotionTarget(Observation seen, LocalState local) {
        if (local.data() != DataState.VALID) {
            return Decision.waiting("named the target primary, but I have no data to promote", false, "");
        }
        if (!local.running()) {
            return Decision.of(Step.START_STANDBY, local.upstream(), "named the target primary; starting as a standby first");
        }
        if (!local.inRecovery()) {
            return Decision.waiting("promoted; waiting for the runbook to record me as the primary", true, "primary");
        }
        String blocker = oldPrimaryStillWrites(seen, local);
        if (blocker != null) {
            return Decision.waiting(blocker, true, "replica");
        }
        return Decision.of(Step.PROMOTE, "", "named the target primary and " + seen.currentPrimary() + " is fenced");
    }

    /** Why the old primary may still take writes (null when it cannot): a promotion waits for it. */
    private static String oldPrimaryStillWrites(Observation seen, LocalState local) {
        PeerPod old = seen.currentPrimaryPod();
        if (old == null || !old.exists()) {
            return null;
        }
        if (!"fenced".equals(old.roleLabel())) {
            return "waiting for " + old.name() + " to be fenced before promoting";
        }
        if ("fenced".equals(old.reportedRole())) {
            long stoppedAt = Lsn.parse(old.reportedLsn());
            long replayed = Lsn.parse(local.lsn());
            return stoppedAt != Lsn.UNKNOWN && replayed < stoppedAt
                    ? "waiting to replay up to " + old.reportedLsn() + " where " + old.name() + " stopped (replayed " + local.lsn() + ")"
                    : null;
        }
        if (old.terminating() || !old.ready() || "failover".equals(seen.promotionReason())) {
            return null;    // a failed primary cannot answer; the runbook already waited failoverDelay
        }
        return "waiting for " + old.name() + " to stop its server";
    }

    private Decision replica(Observation seen, LocalState local) {
        String primary = seen.currentPrimary();
        if (primary.isEmpty()) {
            return Decision.waiting("labelled replica, but the cluster has no primary yet", false, "");
        }
        boolean following = local.running() && local.inRecovery() && primary.equals(local.upstream());
        if (following) {
            return Decision.waiting("following " + primary, true, "replica");
        }
        if (local.running()) {
            return Decision.of(Step.STOP, "", "stopping to follow " + primary + " (now following '" + local.upstream() + "')");
        }
        PeerPod upstream = seen.currentPrimaryPod();
        if (upstream == null || !upstream.servesAsPrimary()) {
            return Decision.waiting("waiting for the primary " + primary + " to run", false, "");
        }
        if (local.data() == DataState.EMPTY) {
            return Decision.of(Step.CLONE, primary, "a new replica: copying " + primary);
        }
        if (primary.equals(local.upstream())) {
            return Decision.of(Step.START_STANDBY, primary, "restarting as a standby of " + primary);
        }
        return Decision.of(Step.REWIND, primary, "rewinding to follow " + primary);
    }
}
