package dev.runbook.operator.shard;

import dev.runbook.operator.leader.LeaderElection;
import dev.runbook.operator.testkit.TestCluster;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * One replica's sharding side, as the runtime will hold it: its member Lease, with {@code acting} run
 * while it holds it, and the sharder's loop over one primary kind while it holds the leader Lease
 * ({@code runbook-operator}). Real Leases and real time, at the test timing.
 */
final class ShardReplica implements AutoCloseable {
    static final LeaderElection.Timing LEASES = TestCluster.LEADER_ELECTION;
    static final ShardingLoop.Timing LOOP = new ShardingLoop.Timing(Duration.ofMillis(500), Duration.ofSeconds(30));

    private final LeaderElection member;
    private final LeaderElection leader;

    ShardReplica(KubernetesClient client, String namespace, String name, String apiVersion, String kind,
                 LeaderElection.Candidate acting) {
        Membership membership = new Membership(client, namespace, LEASES, Clock.systemUTC());
        ShardingLoop loop = new ShardingLoop(membership, List.of(new Sharder(client, apiVersion, kind, Set.of(namespace))),
                LOOP, Clock.systemUTC());
        member = membership.memberLease(LeaderElection.leaseClient(client, LEASES), name, acting);
        leader = new LeaderElection(LeaderElection.leaseClient(client, LEASES), namespace, "runbook-operator", name, LEASES,
                new LeaderElection.Candidate() {
                    @Override public void lead() { loop.start(); }
                    @Override public void standBy() { loop.close(); }
                });
        member.start();
        leader.start();
    }

    /** Stops like a replica that shuts down: the loop and its acting stop, then both Leases are released. */
    @Override
    public void close() {
        leader.close();
        member.close();
    }
}
