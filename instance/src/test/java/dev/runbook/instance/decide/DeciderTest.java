package dev.runbook.instance.decide;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runbook.instance.address.Address;
import dev.runbook.instance.address.Addresses;
import dev.runbook.instance.local.DataState;
import dev.runbook.instance.local.LocalState;
import dev.runbook.instance.observe.Observation;
import dev.runbook.instance.observe.PeerPod;
import dev.runbook.instance.postgres.Sql.WalReceiver;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DeciderTest {
    /** pg-N listens on 127.0.0.1:5400+N, as the loopback tier's address file would say. */
    private static final Addresses ADDRESSES = pod -> new Address("127.0.0.1", 5400 + Integer.parseInt(pod.substring(pod.lastIndexOf('-') + 1)));
    /** The mark the replication role carries once set up: a primary whose role has it has nothing more to set. */
    private static final String MARK = "runbook replication 0011223344556677";
    private final Decider decider = new Decider("pg-1", false, ADDRESSES, MARK);

    private static final LocalState EMPTY = new LocalState(DataState.EMPTY, false, false, false, "", "", "");
    private static final LocalState STOPPED = new LocalState(DataState.VALID, false, false, false, "", "0/3000028", "");
    private static final LocalState STANDBY_OF_PG0 = standbyOf("pg-0", "0/3000100", "streaming");
    private static final LocalState PRIMARY = primary("");

    /** A primary whose replication role is set up, with these synchronous_standby_names and no slots. */
    private static LocalState primary(String standbyNames) {
        return new LocalState(DataState.VALID, true, true, false, "", "0/3000100", standbyNames, false, null, MARK, java.util.Map.of());
    }

    /** A standby set to follow {@code upstream}, its WAL receiver connected to it in {@code status}. */
    private static LocalState standbyOf(String upstream, String lsn, String status) {
        return new LocalState(DataState.VALID, true, true, true, upstream, lsn, "", true, new WalReceiver(status, ADDRESSES.of(upstream)));
    }

    private Decision decide(Observation seen, LocalState local) {
        return decider.decide(seen, local, Duration.ZERO);
    }

    private static Observation seen(String role, String current, String target, String reason, String primaryLsn, PeerPod currentPod) {
        return new Observation(true, role, true, current, target, reason, primaryLsn, false, currentPod);
    }

    private static PeerPod pg0(String role, String reported, String lsn, boolean ready) {
        return new PeerPod("pg-0", true, false, ready, role, reported, lsn);
    }

    @Test
    void anEmptyInstanceIsReadyToBeChosenBeforeTheClusterHasAPrimary() {
        Decision d = decide(seen("", "", "", "", "", null), EMPTY);
        assertThat(d.step()).isEqualTo(Step.WAIT);
        assertThat(d.ready()).isTrue();
    }

    @Test
    void theChosenFirstPrimaryInitialisesAnEmptyDirectory() {
        assertThat(decide(seen("primary", "pg-1", "pg-1", "", "", null), EMPTY).step()).isEqualTo(Step.INITDB);
    }

    @Test
    void withARecoveryConfiguredTheFirstPrimaryRestoresAndNeverRunsInitdb() {
        Decider restoring = new Decider("pg-1", true, ADDRESSES, MARK);
        assertThat(restoring.decide(seen("primary", "pg-1", "pg-1", "", "", null), EMPTY, Duration.ZERO).step()).isEqualTo(Step.RESTORE);
        assertThat(restoring.decide(seen("primary", "pg-1", "pg-1", "", "0/3000100", null), EMPTY, Duration.ZERO).step())
                .as("a cluster that has had a primary is not restored over either").isEqualTo(Step.REFUSE);
        assertThat(restoring.decide(seen("primary", "pg-1", "pg-1", "", "", null), STOPPED, Duration.ZERO).step())
                .as("a restored data directory is started, not restored again").isEqualTo(Step.START_PRIMARY);
    }

    @Test
    void neverInitdbWhenTheClusterHasHadAPrimary() {
        Decision d = decide(seen("primary", "pg-1", "pg-1", "", "0/5000000", null), EMPTY);
        assertThat(d.step()).isEqualTo(Step.REFUSE);
        assertThat(d.why()).contains("0/5000000").contains("initdb would start a new, empty database");
    }

    @Test
    void neverWritesOverADirectoryThatIsNotAPostgresDataDirectory() {
        LocalState foreign = new LocalState(DataState.FOREIGN, false, false, false, "", "", "");
        assertThat(decide(seen("primary", "pg-1", "pg-1", "", "", null), foreign).step()).isEqualTo(Step.REFUSE);
    }

    @Test
    void aNewReplicaClonesOnceThePrimaryRuns() {
        assertThat(decide(seen("replica", "pg-0", "pg-0", "", "", pg0("primary", "", "", true)), EMPTY).step())
                .isEqualTo(Step.WAIT);
        Decision d = decide(seen("replica", "pg-0", "pg-0", "", "", pg0("primary", "primary", "0/3000000", true)), EMPTY);
        assertThat(d.step()).isEqualTo(Step.CLONE);
        assertThat(d.upstream()).isEqualTo("pg-0");
    }

    @Test
    void aStreamingReplicaReportsReplica() {
        Decision d = decide(seen("replica", "pg-0", "pg-0", "", "", pg0("primary", "primary", "0/3000100", true)), STANDBY_OF_PG0);
        assertThat(d.step()).isEqualTo(Step.WAIT);
        assertThat(d.ready()).isTrue();
        assertThat(d.reportedRole()).isEqualTo("replica");
    }

    @Test
    void theTargetWaitsUntilTheOldPrimaryIsFenced() {
        Decision d = decide(seen("replica", "pg-0", "pg-1", "switchover", "", pg0("primary", "primary", "0/3000100", true)), STANDBY_OF_PG0);
        assertThat(d.step()).isEqualTo(Step.WAIT);
        assertThat(d.reportedRole()).isEqualTo("replica");
    }

    @Test
    void aSwitchoverTargetPromotesOnlyOnceItReplayedWhereTheOldPrimaryStopped() {
        PeerPod stoppedAhead = pg0("fenced", "fenced", "0/3000200", true);
        assertThat(decide(seen("replica", "pg-0", "pg-1", "switchover", "", stoppedAhead), STANDBY_OF_PG0).step()).isEqualTo(Step.WAIT);
        PeerPod stoppedBehind = pg0("fenced", "fenced", "0/3000090", true);
        assertThat(decide(seen("replica", "pg-0", "pg-1", "switchover", "", stoppedBehind), STANDBY_OF_PG0).step()).isEqualTo(Step.PROMOTE);
    }

    @Test
    void aSwitchoverTargetTreatsAPositionItCannotReadAsNotKnown() {
        // The old primary's report cannot be read: nothing to wait for (its server has stopped, it said so).
        PeerPod unreadable = pg0("fenced", "fenced", "0/3000zz0", true);
        assertThat(decide(seen("replica", "pg-0", "pg-1", "switchover", "", unreadable), STANDBY_OF_PG0).step()).isEqualTo(Step.PROMOTE);
        PeerPod none = pg0("fenced", "fenced", "", true);
        assertThat(decide(seen("replica", "pg-0", "pg-1", "switchover", "", none), STANDBY_OF_PG0).step()).isEqualTo(Step.PROMOTE);
        // Its own position cannot be read: not there yet.
        PeerPod stoppedBehind = pg0("fenced", "fenced", "0/3000090", true);
        Decision own = decide(seen("replica", "pg-0", "pg-1", "switchover", "", stoppedBehind), standbyOf("pg-0", "", "streaming"));
        assertThat(own.step()).isEqualTo(Step.WAIT);
        assertThat(own.why()).contains("waiting to replay up to 0/3000090");
    }

    @Test
    void aFailoverTargetWaitsOutTheOldPrimarysLeaseWhateverItsPodSays() {
        // Not ready, labelled fenced, still reporting primary: its instance manager may be paused while its server takes writes.
        PeerPod silent = pg0("fenced", "primary", "0/3000100", false);
        Observation failover = seen("replica", "pg-0", "pg-1", "failover", "", silent);
        Duration wait = Observation.DEFAULT_LEASE.plus(Decider.WATCHDOG_MARGIN);
        assertThat(decider.decide(failover, STANDBY_OF_PG0, Duration.ZERO).step()).isEqualTo(Step.WAIT);
        Decision almost = decider.decide(failover, STANDBY_OF_PG0, wait.minusMillis(10));
        assertThat(almost.step()).isEqualTo(Step.WAIT);
        assertThat(almost.why()).contains("lease");
        assertThat(decider.decide(failover, STANDBY_OF_PG0, wait).step()).isEqualTo(Step.PROMOTE);
        Observation gone = seen("replica", "pg-0", "pg-1", "failover", "", PeerPod.absent("pg-0"));
        assertThat(decider.decide(gone, STANDBY_OF_PG0, Duration.ofSeconds(2)).step())
                .as("a pod that is gone may still have a server on a node cut off from the API server").isEqualTo(Step.WAIT);
        assertThat(decider.decide(gone, STANDBY_OF_PG0, wait).step()).isEqualTo(Step.PROMOTE);
    }

    @Test
    void aSwitchoverTargetWhoseOldPrimaryNeverReportsPromotesOnceTheLeaseRanOut() {
        PeerPod paused = pg0("fenced", "primary", "0/3000100", false);
        Observation switchover = seen("replica", "pg-0", "pg-1", "switchover", "", paused);
        assertThat(decider.decide(switchover, STANDBY_OF_PG0, Duration.ofSeconds(5)).step()).isEqualTo(Step.WAIT);
        assertThat(decider.decide(switchover, STANDBY_OF_PG0, Duration.ofSeconds(11)).step()).isEqualTo(Step.PROMOTE);
    }

    @Test
    void aTargetStaysReadyWhileItPromotes() {
        // Not ready for the promoting pass, its pod's Ready turned False just as the runbook recorded it the
        // primary; with the failed primary's clock still running, that read as the new primary failing too.
        PeerPod stopped = pg0("fenced", "fenced", "0/3000028", false);
        Decision promote = decide(seen("replica", "pg-0", "pg-1", "failover", "", stopped), STANDBY_OF_PG0);
        assertThat(promote.step()).isEqualTo(Step.PROMOTE);
        assertThat(promote.ready()).isTrue();
    }

    @Test
    void aTargetPromotesAtOnceOnceTheOldPrimaryReportsItsServerStopped() {
        PeerPod stopped = pg0("fenced", "fenced", "0/3000028", false);
        assertThat(decide(seen("replica", "pg-0", "pg-1", "failover", "", stopped), STANDBY_OF_PG0).step()).isEqualTo(Step.PROMOTE);
        PeerPod stoppedAhead = pg0("fenced", "fenced", "0/4000000", false);
        assertThat(decide(seen("replica", "pg-0", "pg-1", "failover", "", stoppedAhead), STANDBY_OF_PG0).step())
                .as("after a failure nothing more will stream: the target does not wait to replay what it cannot receive").isEqualTo(Step.PROMOTE);
    }

    @Test
    void thePromotionWaitsForTheLongerOfTheSpecsLeaseAndTheOneTheOldPrimaryReported() {
        PeerPod longLease = new PeerPod("pg-0", true, false, false, "fenced", "primary", "0/3000100", Duration.ofSeconds(60));
        Observation shortSpec = new Observation(true, "replica", true, "pg-0", "pg-1", "failover", "", false, longLease, Duration.ofSeconds(5), null);
        assertThat(decider.decide(shortSpec, STANDBY_OF_PG0, Duration.ofSeconds(30)).step()).isEqualTo(Step.WAIT);
        assertThat(decider.decide(shortSpec, STANDBY_OF_PG0, Duration.ofSeconds(61)).step()).isEqualTo(Step.PROMOTE);
    }

    @Test
    void theOldPrimaryStopsAtOnceWhenAnotherIsRecordedAsTheTargetEvenBeforeItIsFenced() {
        Decision d = decide(seen("primary", "pg-1", "pg-2", "failover", "", null), PRIMARY);
        assertThat(d.step()).isEqualTo(Step.STOP);
        assertThat(d.ready()).isFalse();
        Decision stopped = decide(seen("primary", "pg-1", "pg-2", "failover", "", null), STOPPED);
        assertThat(stopped.step()).as("never started as primary again").isEqualTo(Step.WAIT);
        assertThat(stopped.reportedRole()).as("what the target waits for instead of the lease").isEqualTo("fenced");
    }

    @Test
    void aHungServerThatMayTakeWritesIsKilledOnceAnotherIsToBeThePrimary() {
        LocalState hungPrimary = new LocalState(DataState.VALID, true, false, false, "", "", "", false, null);
        assertThat(decide(seen("primary", "pg-1", "pg-1", "", "", null), hungPrimary).ready())
                .as("a hung primary is not ready, so that the runbook fails over").isFalse();
        assertThat(decide(seen("primary", "pg-1", "pg-1", "", "", null), hungPrimary).step()).isEqualTo(Step.WAIT);
        assertThat(decide(seen("primary", "pg-1", "pg-2", "failover", "", null), hungPrimary).step()).isEqualTo(Step.KILL);
        assertThat(decide(seen("fenced", "pg-1", "pg-2", "failover", "", null), hungPrimary).step()).isEqualTo(Step.KILL);
        LocalState hungStandby = new LocalState(DataState.VALID, true, false, false, "pg-0", "", "", true, null);
        assertThat(decide(seen("fenced", "pg-0", "pg-0", "", "", null), hungStandby).step())
                .as("a standby takes no writes: it is not killed").isEqualTo(Step.WAIT);
    }

    @Test
    void aReplicaWhoseWalReceiverDoesNotStreamFromThePrimaryIsNeitherReadyNorReportedReplica() {
        PeerPod primary = pg0("primary", "primary", "0/3000100", true);
        Decision looping = decide(seen("replica", "pg-0", "pg-0", "", "", primary), standbyOf("pg-0", "0/3000100", "waiting"));
        assertThat(looping.step()).isEqualTo(Step.WAIT);
        assertThat(looping.ready()).isFalse();
        assertThat(looping.reportedRole()).isEmpty();
        assertThat(looping.why()).contains("not streaming").contains("waiting");
        LocalState noReceiver = new LocalState(DataState.VALID, true, true, true, "pg-0", "0/3000100", "", true, null);
        assertThat(decide(seen("replica", "pg-0", "pg-0", "", "", primary), noReceiver).ready()).isFalse();
    }

    @Test
    void reportsPrimaryOnlyOnceTheServerIsOutOfRecovery() {
        assertThat(decide(seen("replica", "pg-0", "pg-1", "failover", "", PeerPod.absent("pg-0")), STANDBY_OF_PG0).reportedRole())
                .isNotEqualTo("primary");
        assertThat(decide(seen("replica", "pg-0", "pg-1", "failover", "", PeerPod.absent("pg-0")), PRIMARY).reportedRole())
                .isEqualTo("primary");
    }

    @Test
    void aFencedPrimaryStopsThenReportsFencedAndStaysReady() {
        assertThat(decide(seen("fenced", "pg-1", "pg-2", "switchover", "", null), PRIMARY).step()).isEqualTo(Step.STOP);
        Decision after = decide(seen("fenced", "pg-1", "pg-2", "switchover", "", null), STOPPED);
        assertThat(after.step()).isEqualTo(Step.WAIT);
        assertThat(after.ready()).isTrue();
        assertThat(after.reportedRole()).isEqualTo("fenced");
    }

    @Test
    void aFencedFormerPrimaryRewindsOntoTheNewPrimaryAndReportsReplicaWhileStillFenced() {
        PeerPod newPrimary = pg0("primary", "primary", "0/4000000", true);
        Decision rewind = decide(seen("fenced", "pg-0", "pg-0", "failover", "", newPrimary), STOPPED);
        assertThat(rewind.step()).isEqualTo(Step.REWIND);
        assertThat(rewind.upstream()).isEqualTo("pg-0");
        Decision following = decide(seen("fenced", "pg-0", "pg-0", "failover", "", newPrimary), STANDBY_OF_PG0);
        assertThat(following.step()).isEqualTo(Step.WAIT);
        assertThat(following.reportedRole()).isEqualTo("replica");
        assertThat(following.ready()).isTrue();
    }

    @Test
    void aFencedInstanceStaysStoppedAndReportsFencedUntilTheNewPrimaryRuns() {
        Decision d = decide(seen("fenced", "pg-0", "pg-0", "failover", "", pg0("primary", "", "", true)), STOPPED);
        assertThat(d.step()).isEqualTo(Step.WAIT);
        assertThat(d.ready()).isTrue();
        assertThat(d.reportedRole()).isEqualTo("fenced");
    }

    @Test
    void aFencedInstanceStillRunningAsPrimaryStopsEvenWhenAnotherIsPrimary() {
        assertThat(decide(seen("fenced", "pg-0", "pg-0", "failover", "", pg0("primary", "primary", "0/4000000", true)), PRIMARY).step())
                .isEqualTo(Step.STOP);
    }

    @Test
    void aFormerPrimaryLabelledReplicaRewindsOntoTheNewPrimary() {
        Decision d = decide(seen("replica", "pg-0", "pg-0", "failover", "", pg0("primary", "primary", "0/4000000", true)), STOPPED);
        assertThat(d.step()).isEqualTo(Step.REWIND);
        assertThat(d.upstream()).isEqualTo("pg-0");
    }

    @Test
    void aReplicaOfTheOldPrimaryStopsToFollowTheNewOne() {
        LocalState standbyOfPg2 = new LocalState(DataState.VALID, true, true, true, "pg-2", "0/3000100", "");
        assertThat(decide(seen("replica", "pg-0", "pg-0", "", "", pg0("primary", "primary", "0/4000000", true)), standbyOfPg2).step())
                .isEqualTo(Step.STOP);
    }

    @Test
    void theCurrentPrimaryRestartsAfterACrashAndPromotesIfStillAStandby() {
        assertThat(decide(seen("primary", "pg-1", "pg-1", "", "0/3000000", null), STOPPED).step()).isEqualTo(Step.START_PRIMARY);
        assertThat(decide(seen("primary", "pg-1", "pg-1", "", "0/3000000", null), STANDBY_OF_PG0).step()).isEqualTo(Step.PROMOTE);
    }

    @Test
    void thePrimarySetsSynchronousReplicationAsTheSpecSays() {
        Observation sync = new Observation(true, "primary", true, "pg-1", "pg-1", "", "0/3000000", true, null);
        Decision d = decide(sync, PRIMARY);
        assertThat(d.step()).isEqualTo(Step.SET_SYNCHRONOUS);
        assertThat(d.standbyNames()).isEqualTo("ANY 1 (*)");
        LocalState alreadySync = primary("ANY 1 (*)");
        assertThat(decide(sync, alreadySync).step()).isEqualTo(Step.WAIT);
        assertThat(decide(seen("primary", "pg-1", "pg-1", "", "0/3000000", null), alreadySync).standbyNames()).isEmpty();
        assertThat(decide(seen("primary", "pg-1", "pg-1", "", "0/3000000", null), alreadySync).step()).isEqualTo(Step.SET_SYNCHRONOUS);
    }

    @Test
    void anUnlabelledInstanceWithARecordedPrimaryWaitsForItsRole() {
        Decision d = decide(seen("", "pg-0", "pg-0", "", "", pg0("primary", "primary", "0/1", true)), STOPPED);
        assertThat(d.step()).isEqualTo(Step.WAIT);
        assertThat(d.ready()).isFalse();
    }

    @Test
    void aReplicaThatStreamedFromThePrimaryUntilItStoppedStaysACandidate() {
        // The primary is killed: every receiver stops with it. A replica that streamed from that very primary holds its timeline.
        LocalState lostItsPrimary = new LocalState(DataState.VALID, true, true, true, "pg-0", "0/3000100", "", true, null, "", java.util.Map.of(),
                ADDRESSES.of("pg-0").toString());
        Decision d = decide(seen("replica", "pg-0", "pg-0", "", "", pg0("primary", "primary", "0/3000100", false)), lostItsPrimary);
        assertThat(d.ready()).isTrue();
        assertThat(d.reportedRole()).isEqualTo("replica");
        assertThat(decide(seen("replica", "pg-0", "pg-0", "", "", pg0("primary", "primary", "0/3000100", true)), lostItsPrimary).ready())
                .as("while the primary serves, a replica that does not stream from it is not ready").isFalse();
        LocalState neverStreamedFromIt = new LocalState(DataState.VALID, true, true, true, "pg-0", "0/3000100", "", true, null, "", java.util.Map.of(),
                ADDRESSES.of("pg-2").toString());
        assertThat(decide(seen("replica", "pg-0", "pg-0", "", "", pg0("primary", "primary", "0/3000100", false)), neverStreamedFromIt).ready())
                .as("set to follow the new primary but never streamed from it: it may lack its timeline, so two promotions could choose one")
                .isFalse();
    }

    @Test
    void aTargetStoppedAfterItPromotedItselfStartsAsThePrimary() {
        // Its standby.signal is gone: it is the new primary already, and it has no upstream to start as a standby of.
        LocalState promotedThenStopped = new LocalState(DataState.VALID, false, false, false, "", "0/4000000", "", false, null);
        Decision d = decide(seen("replica", "pg-0", "pg-1", "failover", "", pg0("fenced", "fenced", "0/3000000", false)), promotedThenStopped);
        assertThat(d.step()).isEqualTo(Step.START_PRIMARY);
    }

    @Test
    void thePrimarySetsUpTheReplicationRoleWhenItsMarkIsNotThisClusters() {
        LocalState unmarked = new LocalState(DataState.VALID, true, true, false, "", "0/3000100", "", false, null, "runbook replication other", java.util.Map.of());
        Decision d = decide(seen("primary", "pg-1", "pg-1", "", "0/3000000", null), unmarked);
        assertThat(d.step()).isEqualTo(Step.ENSURE_REPLICATION_ROLE);
        assertThat(d.ready()).as("the primary serves meanwhile").isTrue();
        assertThat(d.reportedRole()).isEqualTo("primary");
    }

    @Test
    void thePrimaryKeepsASlotForEveryOtherInstanceAndNoMore() {
        Observation three = new Observation(true, "primary", true, "pg-1", "pg-1", "", "", false, null, Observation.DEFAULT_LEASE, null,
                java.util.List.of("pg-0", "pg-1", "pg-2"));
        Decision d = decide(three, PRIMARY);
        assertThat(d.step()).isEqualTo(Step.SYNC_SLOTS);
        assertThat(d.slots()).containsExactlyInAnyOrder("runbook_pg_0", "runbook_pg_2");
        LocalState kept = new LocalState(DataState.VALID, true, true, false, "", "0/3000100", "", false, null, MARK,
                java.util.Map.of("runbook_pg_0", 0L, "runbook_pg_2", 16777216L));
        assertThat(decide(three, kept).step()).isEqualTo(Step.WAIT);
        LocalState removedReplica = new LocalState(DataState.VALID, true, true, false, "", "0/3000100", "", false, null, MARK,
                java.util.Map.of("runbook_pg_0", 0L, "runbook_pg_2", 0L, "runbook_pg_3", 0L));
        assertThat(decide(three, removedReplica).slots()).as("the slot of a replica no longer asked for goes").doesNotContain("runbook_pg_3");
    }
}
