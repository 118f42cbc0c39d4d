package dev.runbook.operator.runtime;

import dev.runbook.operator.leader.LeaderElection;
import dev.runbook.operator.metrics.OperatorMetrics;
import dev.runbook.operator.shard.ShardingLoop;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sharded replica's stand for the leader Lease ({@code runbook-operator}): whichever replica holds it
 * runs the sharder's loop ({@link ShardingLoop}) and writes the accepted copies of bundle ConfigMaps
 * ({@link #isLeading()}); the controllers run under the member Lease instead, in every replica. The
 * gauge {@code runbook_leader} follows this Lease.
 */
final class ShardingLeader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ShardingLeader.class);

    private final LeaderElection election;

    /** @param onLead run on taking the Lease, after the loop started (the reloader catches up its copies) */
    ShardingLeader(OperatorRuntime.Lease lease, ShardingLoop loop, OperatorMetrics metrics, Runnable onLead) {
        this.election = new LeaderElection(lease.client(), lease.namespace(), lease.name(), lease.identity(), lease.timing(),
                new LeaderElection.Candidate() {
                    @Override
                    public void lead() {
                        loop.start();
                        metrics.leading(true);
                        try {
                            onLead.run();
                        } catch (RuntimeException e) {
                            LOG.warn("leading the shards, but the accepted copies could not be brought up to date: {}", e.toString());
                        }
                    }

                    @Override
                    public void standBy() {
                        metrics.leading(false);
                        loop.close();
                    }
                });
    }

    void start() { election.start(); }

    /** Whether this replica holds the leader Lease now. */
    boolean isLeading() { return election.isLeading(); }

    @Override
    public void close() { election.close(); }
}
