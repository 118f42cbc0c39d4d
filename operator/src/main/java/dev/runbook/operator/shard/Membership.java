package dev.runbook.operator.shard;

import dev.runbook.operator.leader.LeaderElection;
import dev.runbook.operator.leader.Leases;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Clock;
import java.time.Instant;
import java.util.Collections;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Who the live members are: each replica holds a Lease of its own, {@code runbook-shard-MEMBER}, in the
 * operator's namespace, renewed by the same {@link LeaderElection} that holds the leader Lease (one
 * election that nobody contests). A member is live while its Lease is held: renewed less than its
 * duration ago ({@link Leases#held}) by the member the Lease is named after. A member that stops cleanly
 * releases its Lease (it stops acting first); one that dies stops renewing and falls out once the Lease
 * expires; one that cannot reach the API server stands down at its renew deadline, before its Lease
 * expires, so when the others see it gone it has already stopped acting.
 */
public final class Membership {
    public static final String LEASE_PREFIX = "runbook-shard-";

    private final KubernetesClient client;
    private final String namespace;
    private final LeaderElection.Timing timing;
    private final Clock clock;

    public Membership(KubernetesClient client, String namespace, LeaderElection.Timing timing, Clock clock) {
        this.client = client;
        this.namespace = namespace;
        this.timing = timing;
        this.clock = clock;
    }

    /**
     * The election that keeps {@code member}'s Lease while it runs: {@link LeaderElection.Candidate#lead()}
     * when it holds the Lease (it may act on its shard), {@code standBy()} when it lost it.
     *
     * @param leaseClient the client the election talks through ({@link LeaderElection#leaseClient}); closed with it
     */
    public LeaderElection memberLease(KubernetesClient leaseClient, String member, LeaderElection.Candidate candidate) {
        ShardLabels.requireMemberName(member);
        return new LeaderElection(leaseClient, namespace, leaseName(member), member, timing, candidate);
    }

    /** The live members, by name. */
    public SortedSet<String> live() {
        Instant now = clock.instant();
        SortedSet<String> members = new TreeSet<>();
        for (Lease lease : client.leases().inNamespace(namespace).list().getItems()) {
            String holder = lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
            if (holder != null && lease.getMetadata().getName().equals(leaseName(holder))
                    && Leases.held(lease, now, timing.leaseDuration())) {
                members.add(holder);
            }
        }
        return Collections.unmodifiableSortedSet(members);
    }

    public static String leaseName(String member) {
        return Leases.name(LEASE_PREFIX, member);
    }
}
