package dev.runbook.instance.lease;

import dev.runbook.postgres.contract.PostgresContract;
import static org.assertj.core.api.Assertions.assertThat;

import dev.runbook.instance.decide.Step;
import dev.runbook.instance.local.DataState;
import dev.runbook.instance.local.LocalState;
import dev.runbook.instance.observe.Observation;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LeaseKeeperTest {
    private static final LocalState PRIMARY = new LocalState(DataState.VALID, true, true, false, "", "0/3000100", "");
    private static final LocalState STOPPED = new LocalState(DataState.VALID, false, false, false, "", "0/3000100", "");

    @TempDir
    java.nio.file.Path dir;
    private final AtomicLong uptime = new AtomicLong(100_000);
    private LeaseWatchdog watchdog;

    @AfterEach
    void stop() {
        if (watchdog != null) {
            watchdog.close();
        }
    }

    private LeaseKeeper keeper(PrimaryLease lease) {
        watchdog = new LeaseWatchdog(dir, dir.resolve("data"), lease.file());
        return new LeaseKeeper("pg-1", lease, watchdog, uptime::get);
    }

    private static Observation seen(String role, String current, String target, Duration lease, Duration reported) {
        return new Observation(true, role, true, current, target, "", "", false, null, lease, reported);
    }

    @Test
    void theEntitledInstanceRenewsFromTheMomentItsReadsWereSent() {
        PrimaryLease lease = new PrimaryLease(dir, uptime::get);
        LeaseKeeper keeper = keeper(lease);
        long sent = keeper.beforeObserving();
        uptime.addAndGet(150);    // the reads took 1.5 s
        keeper.keep(seen("primary", "pg-1", "pg-1", Duration.ofSeconds(5), Duration.ofSeconds(5)), PRIMARY, Step.WAIT, sent);
        assertThat(lease.deadline()).hasValue(sent + 500);
    }

    @Test
    void aLongerLeaseIsReportedBeforeItIsHeld() {
        PrimaryLease lease = new PrimaryLease(dir, uptime::get);
        LeaseKeeper keeper = keeper(lease);
        Observation longer = seen("primary", "pg-1", "pg-1", Duration.ofSeconds(60), Duration.ofSeconds(10));
        assertThat(keeper.annotations(longer)).containsEntry(PostgresContract.LEASE_DURATION, "60s");
        keeper.keep(longer, PRIMARY, Step.WAIT, uptime.get());
        assertThat(lease.deadline()).as("still the 10 s the pod says").hasValue(uptime.get() + 1000);
    }

    @Test
    void anInstanceNoLongerEntitledLetsItsLeaseLapseWhileItsServerRunsAndDropsItOnceStopped() {
        PrimaryLease lease = new PrimaryLease(dir, uptime::get);
        LeaseKeeper keeper = keeper(lease);
        keeper.keep(seen("primary", "pg-1", "pg-1", Duration.ofSeconds(5), null), PRIMARY, Step.WAIT, uptime.get());
        long held = lease.deadline().getAsLong();
        uptime.addAndGet(100);
        keeper.keep(seen("primary", "pg-1", "pg-2", Duration.ofSeconds(5), null), PRIMARY, Step.WAIT, uptime.get());
        assertThat(lease.deadline()).as("not renewed: it runs out as it stands").hasValue(held);
        keeper.keep(seen("fenced", "pg-1", "pg-2", Duration.ofSeconds(5), null), STOPPED, Step.WAIT, uptime.get());
        assertThat(lease.deadline()).isEmpty();
    }

    @Test
    void aPromotionTargetHoldsNoLeaseWhileItIsAStandbyAndTakesOneBeforeItPromotes() {
        // A standby takes no writes: a lease would only let the watchdog kill a target that waits (for an API server, say).
        PrimaryLease lease = new PrimaryLease(dir, uptime::get);
        LeaseKeeper keeper = keeper(lease);
        Observation target = seen("replica", "pg-0", "pg-1", Duration.ofSeconds(5), null);
        LocalState standby = new LocalState(DataState.VALID, true, true, true, "pg-0", "0/3000100", "");
        keeper.keep(target, standby, Step.WAIT, uptime.get());
        assertThat(lease.deadline()).isEmpty();
        keeper.keep(target, standby, Step.PROMOTE, uptime.get());
        assertThat(lease.deadline()).hasValue(uptime.get() + 500);
    }

    @Test
    void aHeldLeaseIsRenewedRightAfterTheReadsAndNoneIsTakenThere() {
        // The pass may then wait seconds on a slow server: the lease must not run out meanwhile.
        PrimaryLease lease = new PrimaryLease(dir, uptime::get);
        LeaseKeeper keeper = keeper(lease);
        Observation entitled = seen("primary", "pg-1", "pg-1", Duration.ofSeconds(5), null);
        keeper.renewHeld(entitled, uptime.get());
        assertThat(lease.deadline()).as("no lease yet: taking one waits for the step").isEmpty();
        keeper.keep(entitled, PRIMARY, Step.WAIT, uptime.get());
        uptime.addAndGet(300);
        keeper.renewHeld(entitled, uptime.get());
        assertThat(lease.deadline()).hasValue(uptime.get() + 500);
        long held = lease.deadline().getAsLong();
        uptime.addAndGet(100);
        keeper.renewHeld(seen("primary", "pg-1", "pg-2", Duration.ofSeconds(5), null), uptime.get());
        assertThat(lease.deadline()).as("not entitled: not renewed").hasValue(held);
    }

    @Test
    void itsOwnThreadReadsAndRenewsOnlyWhileALeaseIsHeld() {
        PrimaryLease lease = new PrimaryLease(dir, uptime::get);
        LeaseKeeper keeper = keeper(lease);
        Observation entitled = seen("primary", "pg-1", "pg-1", Duration.ofSeconds(5), null);
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        keeper.renewFromOwnReads(() -> {
            reads.incrementAndGet();
            return entitled;
        });
        assertThat(reads).as("no lease: no reads, none taken").hasValue(0);
        assertThat(lease.deadline()).isEmpty();
        keeper.keep(entitled, PRIMARY, Step.WAIT, uptime.get());
        uptime.addAndGet(400);    // a pass busy with a slow step
        keeper.renewFromOwnReads(() -> {
            reads.incrementAndGet();
            return entitled;
        });
        assertThat(reads).hasValue(1);
        assertThat(lease.deadline()).hasValue(uptime.get() + 500);
    }

    @Test
    void aFencedPodIsNeverEntitledWhateverTheStatusSays() {
        PrimaryLease lease = new PrimaryLease(dir, uptime::get);
        keeper(lease).keep(seen("fenced", "pg-1", "pg-1", Duration.ofSeconds(5), null), PRIMARY, Step.WAIT, uptime.get());
        assertThat(lease.deadline()).isEmpty();
    }

    @Test
    void theTargetsClockCountsFromThePassThatFirstShowedThePromotion() {
        LeaseKeeper keeper = keeper(new PrimaryLease(dir, uptime::get));
        Observation promotion = seen("replica", "pg-0", "pg-1", Duration.ofSeconds(5), null);
        assertThat(keeper.targetFor(promotion)).isZero();
        uptime.addAndGet(320);
        assertThat(keeper.targetFor(promotion)).isEqualTo(Duration.ofMillis(3200));
        assertThat(keeper.targetFor(seen("replica", "pg-0", "pg-0", Duration.ofSeconds(5), null))).isZero();
        uptime.addAndGet(100);
        assertThat(keeper.targetFor(promotion)).as("a promotion seen again starts again").isZero();
    }
}
