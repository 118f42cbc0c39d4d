package dev.runbook.instance.lease;

import dev.runbook.postgres.contract.PostgresContract;
import dev.runbook.instance.config.DurationText;
import dev.runbook.instance.decide.Step;
import dev.runbook.instance.local.LocalState;
import dev.runbook.instance.observe.Observation;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lease's part of each pass (docs/instance-manager.md#fencing): note when the pass's reads were
 * sent, renew the lease from that moment when they say this instance is entitled to write, report
 * the lease's duration before holding a longer one, let it lapse otherwise, and keep the watchdog
 * running. It also keeps the promotion target's clock: how long this instance has seen itself as
 * the target of a promotion, measured from after the read that first showed it.
 */
public final class LeaseKeeper {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);

    private final String self;
    private final PrimaryLease lease;
    private final LeaseWatchdog watchdog;
    private final Uptime uptime;
    private String promotionSeen;
    private long promotionSeenAt;

    public LeaseKeeper(String self, PrimaryLease lease, LeaseWatchdog watchdog, Uptime uptime) {
        this.self = self;
        this.lease = lease;
        this.watchdog = watchdog;
        this.uptime = uptime;
    }

    /** How long the lease has left, in milliseconds; negative when none is held. */
    public long leftMillis() {
        return lease.deadline().isPresent() ? (lease.deadline().getAsLong() - uptime.centiseconds()) * 10 : -1;
    }

    /**
     * Right after the reads, before the pass looks at its server (which may take seconds when the
     * server is slow): a lease already held is renewed from {@code confirmedAt} at once, so that the
     * margin it needs covers the reads alone. Taking a lease and letting one lapse wait for {@link #keep}.
     */
    public void renewHeld(Observation seen, long confirmedAt) {
        if (seen.entitled(self)) {
            lease.renewIfHeld(confirmedAt, seen.leaseToHold());
        }
    }

    /**
     * From a thread of its own, every interval: while a lease is held, read again what entitles this
     * instance ({@code ownReads}: its pod and its cluster) and renew from the moment the reads were sent.
     * A pass can spend seconds on a step (a checkpoint after a promotion, a reload, a slow server); the
     * lease must not run out meanwhile, or the watchdog would kill a primary that is in good standing.
     * It renews only a lease the pass took, and only from reads of its own.
     */
    public void renewFromOwnReads(Supplier<Observation> ownReads) {
        if (lease.deadline().isEmpty()) {
            return;
        }
        long confirmedAt = uptime.centiseconds();
        renewHeld(ownReads.get(), confirmedAt);
    }

    /** When this pass's reads are sent: a lease they confirm counts from here. */
    public long beforeObserving() {
        return uptime.centiseconds();
    }

    /** How long this instance has been the target of the promotion the observation shows (zero when it is not one). */
    public Duration targetFor(Observation seen) {
        boolean target = seen.entitled(self) && !seen.currentPrimary().isEmpty() && !self.equals(seen.currentPrimary());
        if (!target) {
            promotionSeen = null;
            return Duration.ZERO;
        }
        String promotion = seen.currentPrimary() + ">" + self;
        long now = uptime.centiseconds();
        if (!promotion.equals(promotionSeen)) {
            promotionSeen = promotion;
            promotionSeenAt = now;
        }
        return Duration.ofMillis((now - promotionSeenAt) * 10);
    }

    /** What the entitled instance reports on its pod: the lease it holds from this pass on. */
    public Map<String, String> annotations(Observation seen) {
        Map<String, String> report = new HashMap<>();
        if (seen.entitled(self)) {
            report.put(PostgresContract.LEASE_DURATION, DurationText.format(seen.leaseDuration()));
        }
        return report;
    }

    /**
     * After the report, before the step: while entitled, hold the lease whenever the server may take
     * writes or the step makes it a primary (renewed no longer than what was already reported, so that
     * a promotion never waits less than a lease that holds); a standby takes no writes and holds none,
     * so the watchdog never kills a promotion target that merely waits. Not entitled: let the lease
     * lapse while a server that may take writes still runs (the step stops or kills it, and the
     * watchdog makes sure of it by the deadline); drop it once no server could take writes.
     */
    public void keep(Observation seen, LocalState local, Step step, long confirmedAt) {
        watchdog.ensureRunning();
        String expiry = watchdog.takeExpiry();
        if (!expiry.isEmpty()) {
            LOG.warn("the primary lease ran out before it was renewed (uptime, deadline: {}): the watchdog killed the server", expiry);
        }
        boolean writes = local.mayTakeWrites() || MAKES_A_PRIMARY.contains(step);
        if (seen.entitled(self) && writes) {
            lease.renew(confirmedAt, seen.leaseToHold());
        } else if (!local.mayTakeWrites()) {
            lease.release();
        }
    }

    /** The steps after which the server runs as a primary: the lease is taken before them. */
    private static final Set<Step> MAKES_A_PRIMARY = EnumSet.of(Step.INITDB, Step.RESTORE, Step.START_PRIMARY, Step.PROMOTE);
}
