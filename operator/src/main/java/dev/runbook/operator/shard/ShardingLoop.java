package dev.runbook.operator.shard;

import dev.runbook.operator.concurrent.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The sharder, run by the replica that holds the leader Lease: every {@code poll} it reads the live
 * members, and runs a pass of each {@link Sharder} when the members changed, when the last pass left
 * work (writes made or refused, drains waiting for their acknowledgement), or when {@code resync} has
 * gone by since the last pass (for primaries created since: until the webhook assigns them at create,
 * this is how long a new primary waits), or when the sharders changed (a bundle reload brought a new
 * primary kind). Otherwise a tick costs one list of the namespace's Leases.
 */
public final class ShardingLoop implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ShardingLoop.class);

    /** How often the sharder looks at the members, and how long a new primary may wait for its owner. */
    public record Timing(Duration poll, Duration resync) {
        public static final Timing DEFAULT = new Timing(Duration.ofSeconds(2), Duration.ofSeconds(30));
    }

    private final Membership membership;
    private final Supplier<List<Sharder>> sharders;
    private final Timing timing;
    private final Clock clock;
    private Set<String> lastMembers;
    private List<Sharder> lastSharders;
    private Instant lastPass = Instant.MIN;
    private boolean unsettled;
    private ScheduledExecutorService timer;

    public ShardingLoop(Membership membership, List<Sharder> sharders, Timing timing, Clock clock) {
        this(membership, () -> sharders, timing, clock);
    }

    /**
     * @param sharders asked at every tick: one {@link Sharder} per primary kind the operator runs now; the
     *                 same instance for the same kind, so that a change of the list is a change of kinds
     */
    public ShardingLoop(Membership membership, Supplier<List<Sharder>> sharders, Timing timing, Clock clock) {
        this.membership = membership;
        this.sharders = sharders;
        this.timing = timing;
        this.clock = clock;
    }

    /** Starts ticking, on a thread of its own; for the leader's {@code Candidate.lead()}. */
    public synchronized void start() {
        if (timer != null) return;
        timer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("runbook-sharder"));
        timer.scheduleWithFixedDelay(() -> {
            try {
                tick();
            } catch (RuntimeException e) {
                LOG.warn("sharder pass failed, trying again in {}: {}", timing.poll(), e.toString());
                unsettled = true;
            }
        }, 0, timing.poll().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One look at the members, and the passes it calls for; returns whether it ran them. */
    public synchronized boolean tick() {
        Set<String> members = membership.live();
        List<Sharder> current = List.copyOf(sharders.get());
        Instant now = clock.instant();
        boolean due = !members.equals(lastMembers) || !current.equals(lastSharders) || unsettled
                || !now.isBefore(lastPass.plus(timing.resync()));
        if (!due) return false;
        if (!members.equals(lastMembers)) LOG.info("shard members: {}", members);
        boolean anyUnsettled = false;
        for (Sharder sharder : current) anyUnsettled |= sharder.pass(members).unsettled();
        lastMembers = members;
        lastSharders = current;
        lastPass = now;
        unsettled = anyUnsettled;
        return true;
    }

    /** Stops ticking; for the leader's {@code Candidate.standBy()}. A pass under way finishes. */
    @Override
    public synchronized void close() {
        if (timer == null) return;
        timer.shutdownNow();
        timer = null;
        lastMembers = null;
        lastSharders = null;
    }
}
