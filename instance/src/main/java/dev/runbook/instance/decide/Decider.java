package dev.runbook.instance.decide;

import dev.runbook.postgres.contract.PromotionReason;
import dev.runbook.postgres.contract.Role;
import dev.runbook.postgres.contract.Lsn;
import dev.runbook.instance.address.Addresses;
import dev.runbook.instance.local.DataState;
import dev.runbook.instance.local.LocalState;
import dev.runbook.instance.observe.Observation;
import dev.runbook.instance.observe.PeerPod;
import dev.runbook.instance.postgres.ReplicationRole;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The instance's side of the contract (docs/runbooks/postgres-cluster.md), as a pure function of
 * what the API server says, what the data directory and the server say, and how long this instance
 * has been the target of a promotion. No I/O: the actor does what it returns, and the next pass
 * decides again from what that changed.
 */
public final class Decider {
    /**
     * What a promotion waits beyond the old primary's lease: the watchdog's tick (0.1 s), the time
     * the kill takes, and the uptime clock's hundredths.
     */
    static final Duration WATCHDOG_MARGIN = Duration.ofSeconds(1);

    private final String self;
    private final boolean restoreConfigured;
    private final Addresses addresses;
    private final String replicationMark;

    /**
     * {@code restoreConfigured}: the pod names a backup to bootstrap from (RECOVERY_DESTINATION_PATH);
     * initdb is then never chosen. {@code addresses}: where each instance's server listens, to tell
     * from the WAL receiver whom a standby streams from. {@code replicationMark}: what the replication
     * role's comment says once it is set up with this cluster's password (postgres.ReplicationRole).
     */
    public Decider(String self, boolean restoreConfigured, Addresses addresses, String replicationMark) {
        this.self = self;
        this.restoreConfigured = restoreConfigured;
        this.addresses = addresses;
        this.replicationMark = replicationMark;
    }

    /** {@code targetFor}: how long this instance has seen itself as the target of a promotion in progress (zero otherwise). */
    public Decision decide(Observation seen, LocalState local, Duration targetFor) {
        if (!seen.podFound() || !seen.clusterFound()) {
            return Decision.waiting("my pod or my PostgresCluster is not there", false, "");
        }
        if (local.data() == DataState.FOREIGN) {
            return Decision.refuse("the data directory holds something that is not a PostgreSQL data directory; nothing is written over it");
        }
        boolean entitled = seen.entitled(self);
        if (local.running() && !local.answering()) {
            if (local.mayTakeWrites() && !entitled) {
                return Decision.of(Step.KILL, "", "the server does not answer and may take writes, but "
                        + (seen.targetPrimary().isEmpty() ? "no" : seen.targetPrimary()) + " is to be the primary: killing it");
            }
            return Decision.waiting(local.mayTakeWrites() ? "the server does not answer" : "the server is starting, stopping or does not answer",
                    false, "");
        }
        String role = seen.roleLabel();
        if (Role.FENCED.equals(role)) {
            return fenced(seen, local);
        }
        if (!entitled && local.mayTakeWrites()) {
            // status.targetPrimary moved on before the label did, or a replica runs as primary: no more writes, at once.
            return Decision.of(Step.STOP, "", "runs as primary, but " + (seen.targetPrimary().isEmpty() ? "no instance" : seen.targetPrimary())
                    + " is to be the primary: stopping the server (sessions ended, no more writes)");
        }
        if (!entitled && self.equals(seen.currentPrimary()) && !local.running() && local.data() == DataState.VALID) {
            // What the promotion's target waits for: this server is stopped and will not start as primary again.
            return Decision.waiting(seen.targetPrimary() + " is to be the primary; my server is stopped", false, Role.FENCED);
        }
        if (entitled && !self.equals(seen.currentPrimary()) && !seen.currentPrimary().isEmpty()) {
            return promotionTarget(seen, local, targetFor);
        }
        if (entitled && self.equals(seen.currentPrimary())) {
            return currentPrimary(seen, local);
        }
        if (Role.REPLICA.equals(role)) {
            return replica(seen, local);
        }
        if (Role.PRIMARY.equals(role)) {
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
                    ? Decision.waiting("fenced; " + rejoin.why(), true, Role.FENCED)
                    : rejoin;
        }
        return Decision.waiting("fenced; the server is stopped and the data kept", true, local.data() == DataState.VALID ? Role.FENCED : "");
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
                    ? "synchronous replication: every commit waits for a standby's flush" : "asynchronous replication", true, Role.PRIMARY);
        }
        if (!replicationMark.equals(local.replicationMark())) {
            return Decision.upkeep(Step.ENSURE_REPLICATION_ROLE, "the replication role streaming_replica is not set up for this cluster", Set.of());
        }
        Set<String> slots = seen.instances().stream().filter(i -> !i.equals(self)).map(ReplicationRole::slotOf)
                .collect(Collectors.toCollection(TreeSet::new));
        if (!slots.equals(local.slots().keySet())) {
            return Decision.upkeep(Step.SYNC_SLOTS, "a replication slot for each other instance: " + slots + " (now " + local.slots().keySet() + ")",
                    slots);
        }
        return Decision.waiting("running as primary", true, Role.PRIMARY);
    }

    private Decision promotionTarget(Observation seen, LocalState local, Duration targetFor) {
        if (local.data() != DataState.VALID) {
            return Decision.waiting("named the target primary, but I have no data to promote", false, "");
        }
        if (!local.running()) {
            // Stopped after it promoted itself (its standby.signal gone): it is the new primary already, and starts as one.
            return local.standbySignal()
                    ? Decision.of(Step.START_STANDBY, local.upstream(), "named the target primary; starting as a standby first")
                    : Decision.of(Step.START_PRIMARY, "", "named the target primary, promoted already; starting as the primary");
        }
        if (!local.inRecovery()) {
            return Decision.waiting("promoted; waiting for the runbook to record me as the primary", true, Role.PRIMARY);
        }
        String blocker = oldPrimaryMayStillWrite(seen, local, targetFor);
        if (blocker != null) {
            return Decision.waiting(blocker, true, local.streamingFrom(addresses.of(seen.currentPrimary())) ? Role.REPLICA : "");
        }
        // Ready while it promotes: the runbook records it the primary as soon as it reports so, and a pod that
        // turned not ready just then would read as the new primary failing in turn.
        return new Decision(Step.PROMOTE, "", "", "named the target primary and " + seen.currentPrimary() + " takes no more writes", true, "");
    }

    /**
     * Why the old primary may still take writes (null when it cannot): a promotion waits until its
     * instance manager reports that its server stopped, and in a switchover until this standby has
     * replayed up to where it stopped; or until its lease has run out, whatever its pod says: a pod
     * that is not ready, terminating or gone may still have a server taking writes (a paused instance
     * manager, a node cut off from the API server), and only the lease bounds how long.
     */
    private static String oldPrimaryMayStillWrite(Observation seen, LocalState local, Duration targetFor) {
        PeerPod old = seen.currentPrimaryPod();
        if (old != null && Role.FENCED.equals(old.reportedRole())) {
            // Where it stopped, if it said; a position of its own this standby cannot read counts as not there yet.
            OptionalLong stoppedAt = Lsn.read(old.reportedLsn());
            OptionalLong replayed = Lsn.read(local.lsn());
            boolean behind = stoppedAt.isPresent() && (replayed.isEmpty() || replayed.getAsLong() < stoppedAt.getAsLong());
            return behind && !PromotionReason.FAILOVER.equals(seen.promotionReason())
                    ? "waiting to replay up to " + old.reportedLsn() + " where " + old.name() + " stopped (replayed " + local.lsn() + ")"
                    : null;
        }
        Duration wait = promotionWait(seen, old);
        if (targetFor.compareTo(wait) >= 0) {
            return null;
        }
        String name = old == null ? seen.currentPrimary() : old.name();
        return "waiting for " + name + " to stop its server, or for its lease to run out ("
                + Math.max(1, wait.minus(targetFor).toSeconds()) + " s left of " + wait.toSeconds() + " s)";
    }

    /** How long after a promotion is recorded no lease of the old primary can still hold: the longer of the spec's and the one it reported, and the margin. */
    static Duration promotionWait(Observation seen, PeerPod old) {
        Duration lease = seen.leaseDuration();
        if (old != null && old.leaseDuration() != null && old.leaseDuration().compareTo(lease) > 0) {
            lease = old.leaseDuration();
        }
        return lease.plus(WATCHDOG_MARGIN);
    }

    /**
     * A replica follows the current primary. Whether it does is read from its WAL receiver (streaming,
     * from the primary's address), not from the file that says whom it was set to follow: a standby
     * whose receiver fails (a timeline it cannot follow, a primary that does not answer) is neither
     * ready nor reported as a replica.
     */
    private Decision replica(Observation seen, LocalState local) {
        String primary = seen.currentPrimary();
        if (primary.isEmpty()) {
            return Decision.waiting("labelled replica, but the cluster has no primary yet", false, "");
        }
        if (local.streamingFrom(addresses.of(primary))) {
            return Decision.waiting("following " + primary, true, Role.REPLICA);
        }
        PeerPod current = seen.currentPrimaryPod();
        boolean primaryDown = current == null || !current.exists() || current.terminating() || !current.ready();
        if (local.running() && local.inRecovery() && primary.equals(local.upstream()) && primaryDown
                && addresses.of(primary).toString().equals(local.lastStreamedFrom())) {
            // Its receiver stopped with the primary: it followed that very primary, timeline and all, until then,
            // and is what a failover may promote. One that never streamed from it is not (it may lack its timeline).
            return Decision.waiting("following " + primary + ", which does not serve now; streamed from it until it stopped", true, Role.REPLICA);
        }
        if (local.running() && local.inRecovery() && primary.equals(local.upstream())) {
            return Decision.waiting("set to follow " + primary + ", not streaming from it yet (WAL receiver: "
                    + (local.receiver() == null ? "none" : local.receiver().status()) + ")", false, "");
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
