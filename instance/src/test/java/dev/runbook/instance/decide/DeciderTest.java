package dev.runbook.instance.decide;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runbook.instance.local.DataState;
import dev.runbook.instance.local.LocalState;
import dev.runbook.instance.observe.Observation;
import dev.runbook.instance.observe.PeerPod;
import org.junit.jupiter.api.Test;

class DeciderTest {
    private final Decider decider = new Decider("pg-1");

    private static final LocalState EMPTY = new LocalState(DataState.EMPTY, false, false, false, "", "", "");
    private static final LocalState STOPPED = new LocalState(DataState.VALID, false, false, false, "", "0/3000028", "");
    private static final LocalState STANDBY_OF_PG0 = new LocalState(DataState.VALID, true, true, true, "pg-0", "0/3000100", "");
    private static final LocalState PRIMARY = new LocalState(DataState.VALID, true, true, false, "", "0/3000100", "");

    private static Observation seen(String role, String current, String target, String reason, String primaryLsn, PeerPod currentPod) {
        return new Observation(true, role, true, current, target, reason, primaryLsn, false, currentPod);
    }

    private static PeerPod pg0(String role, String reported, String lsn, boolean ready) {
        return new PeerPod("pg-0", true, false, ready, role, reported, lsn);
    }

    @Test
    void anEmptyInstanceIsReadyToBeChosenBeforeTheClusterHasAPrimary() {
        Decision d = decider.decide(seen("", "", "", "", "", null), EMPTY);
        assertThat(d.step()).isEqualTo(Step.WAIT);
        assertThat(d.ready()).isTrue();
    }

    @Test
    void theChosenFirstPrimaryInitialisesAnEmptyDirectory() {
        assertThat(decider.decide(seen("primary", "pg-1", "pg-1", "", "", null), EMPTY).step()).isEqualTo(Step.INITDB);
    }

    @Test
    void withARecoveryConfiguredTheFirstPrimaryRestoresAndNeverRunsInitdb() {
        Decider restoring = new Decider("pg-1", true);
        assertThat(restoring.decide(seen("primary", "pg-1", "pg-1", "", "", null), EMPTY).step()).isEqualTo(Step.RESTORE);
        assertThat(restoring.decide(seen("primary", "pg-1", "pg-1", "", "0/3000100", null), EMPTY).step())
                .as("a cluster that has had a primary is not restored over either").isEqualTo(Step.REFUSE);
        assertThat(restoring.decide(seen("primary", "pg-1", "pg-1", "", "", null), STOPPED).step())
                .as("a restored data directory is started, not restored again").isEqualTo(Step.START_PRIMARY);
    }

    @Test
    void neverInitdbWhenTheClusterHasHadAPrimary() {
        Decision d = decider.decide(seen("primary", "pg-1", "pg-1", "", "0/5000000", null), EMPTY);
        assertThat(d.step()).isEqualTo(Step.REFUSE);
        assertThat(d.why()).contains("0/5000000").contains("initdb would start a new, empty database");
    }

    @Test
    void neverWritesOverADirectoryThatIsNotAPostgresDataDirectory() {
        LocalState foreign = new LocalState(DataState.FOREIGN, false, false, false, "", "", "");
        assertThat(decider.decide(seen("primary", "pg-1", "pg-1", "", "", null), foreign).step()).isEqualTo(Step.REFUSE);
    }

    @Test
    void aNewReplicaClonesOnceThePrimaryRuns() {
        assertThat(decider.decide(seen("replica", "pg-0", "pg-0", "", "", pg0("primary", "", "", true)), EMPTY).step())
                .isEqualTo(Step.WAIT);
        Decision d = decider.decide(seen("replica", "pg-0", "pg-0", "", "", pg0("primary", "primary", "0/3000000", true)), EMPTY);
        assertThat(d.step()).isEqualTo(Step.CLONE);
        assertThat(d.upstream()).isEqualTo("pg-0");
    }

    @Test
    void aStreamingReplicaReportsReplica() {
        Decision d = decider.decide(seen("replica", "pg-0", "pg-0", "", "", pg0("primary", "primary", "0/3000100", true)), STANDBY_OF_PG0);
        assertThat(d.step()).isEqualTo(Step.WAIT);
        assertThat(d.ready()).isTrue();
        assertThat(d.reportedRole()).isEqualTo("replica");
    }

    @Test
    void theTargetWaitsUntilTheOldPrimaryIsFenced() {
        Decision d = decider.decide(seen("replica", "pg-0", "pg-1", "switchover", "", pg0("primary", "primary", "0/3000100", true)), STANDBY_OF_PG0);
        assertThat(d.step()).isEqualTo(Step.WAIT);
        assertThat(d.reportedRole()).isEqualTo("replica");
    }

    @Test
    void aSwitchoverTargetPromotesOnlyOnceItReplayedWhereTheOldPrimaryStopped() {
        PeerPod stoppedAhead = pg0("fenced", "fenced", "0/3000200", true);
        assertThat(decider.decide(seen("replica", "pg-0", "pg-1", "switchover", "", stoppedAhead), STANDBY_OF_PG0).step()).isEqualTo(Step.WAIT);
        PeerPod stoppedBehind = pg0("fenced", "fenced", "0/3000090", true);
        assertThat(decider.decide(seen("replica", "pg-0", "pg-1", "switchover", "", stoppedBehind), STANDBY_OF_PG0).step()).isEqualTo(Step.PROMOTE);
    }

    @Test
    void aFailoverTargetPromotesOnceTheFailedPrimaryIsFenced() {
        PeerPod dead = pg0("fenced", "primary", "0/3000100", false);
        assertThat(decider.decide(seen("replica", "pg-0", "pg-1", "failover", "", dead), STANDBY_OF_PG0).step()).isEqualTo(Step.PROMOTE);
        assertThat(decider.decide(seen("replica", "pg-0", "pg-1", "failover", "", PeerPod.absent("pg-0")), STANDBY_OF_PG0).step()).isEqualTo(Step.PROMOTE);
    }

    @Test
    void reportsPrimaryOnlyOnceTheServerIsOutOfRecovery() {
        assertThat(decider.decide(seen("replica", "pg-0", "pg-1", "failover", "", PeerPod.absent("pg-0")), STANDBY_OF_PG0).reportedRole())
                .isNotEqualTo("primary");
        assertThat(decider.decide(seen("replica", "pg-0", "pg-1", "failover", "", PeerPod.absent("pg-0")), PRIMARY).reportedRole())
                .isEqualTo("primary");
    }

    @Test
    void aFencedPrimaryStopsThenReportsFencedAndStaysReady() {
        assertThat(decider.decide(seen("fenced", "pg-1", "pg-2", "switchover", "", null), PRIMARY).step()).isEqualTo(Step.STOP);
        Decision after = decider.decide(seen("fenced", "pg-1", "pg-2", "switchover", "", null), STOPPED);
        assertThat(after.step()).isEqualTo(Step.WAIT);
        assertThat(after.ready()).isTrue();
        assertThat(after.reportedRole()).isEqualTo("fenced");
    }

    @Test
    void aFencedFormerPrimaryRewindsOntoTheNewPrimaryAndReportsReplicaWhileStillFenced() {
        PeerPod newPrimary = pg0("primary", "primary", "0/4000000", true);
        Decision rewind = decider.decide(seen("fenced", "pg-0", "pg-0", "failover", "", newPrimary), STOPPED);
        assertThat(rewind.step()).isEqualTo(Step.REWIND);
        assertThat(rewind.upstream()).isEqualTo("pg-0");
        Decision following = decider.decide(seen("fenced", "pg-0", "pg-0", "failover", "", newPrimary), STANDBY_OF_PG0);
        assertThat(following.step()).isEqualTo(Step.WAIT);
        assertThat(following.reportedRole()).isEqualTo("replica");
        assertThat(following.ready()).isTrue();
    }

    @Test
    void aFencedInstanceStaysStoppedAndReportsFencedUntilTheNewPrimaryRuns() {
        Decision d = decider.decide(seen("fenced", "pg-0", "pg-0", "failover", "", pg0("primary", "", "", true)), STOPPED);
        assertThat(d.step()).isEqualTo(Step.WAIT);
        assertThat(d.ready()).isTrue();
        assertThat(d.reportedRole()).isEqualTo("fenced");
    }

    @Test
    void aFencedInstanceStillRunningAsPrimaryStopsEvenWhenAnotherIsPrimary() {
        assertThat(decider.decide(seen("fenced", "pg-0", "pg-0", "failover", "", pg0("primary", "primary", "0/4000000", true)), PRIMARY).step())
                .isEqualTo(Step.STOP);
    }

    @Test
    void aFormerPrimaryLabelledReplicaRewindsOntoTheNewPrimary() {
        Decision d = decider.decide(seen("replica", "pg-0", "pg-0", "failover", "", pg0("primary", "primary", "0/4000000", true)), STOPPED);
        assertThat(d.step()).isEqualTo(Step.REWIND);
        assertThat(d.upstream()).isEqualTo("pg-0");
    }

    @Test
    void aReplicaOfTheOldPrimaryStopsToFollowTheNewOne() {
        LocalState standbyOfPg2 = new LocalState(DataState.VALID, true, true, true, "pg-2", "0/3000100", "");
        assertThat(decider.decide(seen("replica", "pg-0", "pg-0", "", "", pg0("primary", "primary", "0/4000000", true)), standbyOfPg2).step())
                .isEqualTo(Step.STOP);
    }

    @Test
    void theCurrentPrimaryRestartsAfterACrashAndPromotesIfStillAStandby() {
        assertThat(decider.decide(seen("primary", "pg-1", "pg-1", "", "0/3000000", null), STOPPED).step()).isEqualTo(Step.START_PRIMARY);
        assertThat(decider.decide(seen("primary", "pg-1", "pg-1", "", "0/3000000", null), STANDBY_OF_PG0).step()).isEqualTo(Step.PROMOTE);
    }

    @Test
    void thePrimarySetsSynchronousReplicationAsTheSpecSays() {
        Observation sync = new Observation(true, "primary", true, "pg-1", "pg-1", "", "0/3000000", true, null);
        Decision d = decider.decide(sync, PRIMARY);
        assertThat(d.step()).isEqualTo(Step.SET_SYNCHRONOUS);
        assertThat(d.standbyNames()).isEqualTo("ANY 1 (*)");
        LocalState alreadySync = new LocalState(DataState.VALID, true, true, false, "", "0/3000100", "ANY 1 (*)");
        assertThat(decider.decide(sync, alreadySync).step()).isEqualTo(Step.WAIT);
        assertThat(decider.decide(seen("primary", "pg-1", "pg-1", "", "0/3000000", null), alreadySync).standbyNames()).isEmpty();
        assertThat(decider.decide(seen("primary", "pg-1", "pg-1", "", "0/3000000", null), alreadySync).step()).isEqualTo(Step.SET_SYNCHRONOUS);
    }

    @Test
    void anUnlabelledInstanceWithARecordedPrimaryWaitsForItsRole() {
        Decision d = decider.decide(seen("", "pg-0", "pg-0", "", "", pg0("primary", "primary", "0/1", true)), STOPPED);
        assertThat(d.step()).isEqualTo(Step.WAIT);
        assertThat(d.ready()).isFalse();
    }
}
