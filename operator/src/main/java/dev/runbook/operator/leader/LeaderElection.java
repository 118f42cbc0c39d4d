package dev.runbook.operator.leader;

import dev.runbook.operator.concurrent.DaemonThreads;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import dev.runbook.operator.kube.Kubeconfig;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectorBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Leader election on a coordination.k8s.io Lease, so that several replicas can run and only one acts.
 * The replica that holds the Lease leads: {@link Candidate#lead()} runs; when it cannot renew the Lease
 * in time it stops ({@link Candidate#standBy()}) and stands again as a candidate, and another replica
 * takes the Lease once it expires. On {@link #close()} a leader releases the Lease, so a successor
 * takes over at once instead of after the lease duration.
 *
 * <p>The Lease itself is fabric8's {@code LeaderElector}; this class keeps standing for election after
 * a loss (the elector stops at its first loss) and runs lead and stand-by one at a time on a thread of
 * its own, never on the elector's renew thread.
 */
public final class LeaderElection implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

    /** What the elected replica does, and undoes. */
    public interface Candidate {
        /** Now leading: start acting. */
        void lead();

        /** No longer leading (or never did): stop acting. Must be safe to call when not acting. */
        void standBy();
    }

    /**
     * How long a Lease lasts without renewal, how long a leader keeps trying to renew before it gives
     * up, and how often candidates try. Kubernetes' own controllers use 15s, 10s and 2s.
     */
    public record Timing(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
        public static final Timing DEFAULT = new Timing(Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2));

        public Timing {
            if (renewDeadline.compareTo(leaseDuration) >= 0 || retryPeriod.compareTo(renewDeadline) >= 0) {
                throw new IllegalArgumentException("leader election needs retry period < renew deadline < lease duration, got "
                        + retryPeriod + ", " + renewDeadline + ", " + leaseDuration);
            }
        }
    }

    private final KubernetesClient client;
    private final String namespace;
    private final String lease;
    private final String identity;
    private final Timing timing;
    private final Candidate candidate;
    private final ExecutorService elector = Executors.newCachedThreadPool(DaemonThreads.named("runbook-lease"));
    private final ExecutorService transitions = Executors.newSingleThreadExecutor(DaemonThreads.named("runbook-leadership"));
    private volatile boolean leading;
    private volatile boolean closed;
    private CompletableFuture<?> election;

    /**
     * @param client the client the election talks through, best made by {@link #leaseClient}; the
     *               election closes it
     */
    public LeaderElection(KubernetesClient client, String namespace, String lease, String identity, Timing timing,
                          Candidate candidate) {
        this.client = client;
        this.namespace = namespace;
        this.lease = lease;
        this.identity = identity;
        this.timing = timing;
        this.candidate = candidate;
    }

    /**
     * A client for the election alone: the operator's configuration without retries and with a request
     * timeout under the renew deadline, so that a leader that cannot reach the API server stands down in
     * time. (The default client retries a failed request for over a minute, long after another replica
     * has taken the Lease.)
     */
    public static KubernetesClient leaseClient(KubernetesClient operatorClient, Timing timing) {
        return Kubeconfig.client(new ConfigBuilder(operatorClient.getConfiguration())
                .withRequestRetryBackoffLimit(0)
                .withRequestTimeout((int) timing.renewDeadline().dividedBy(2).toMillis())
                .build());
    }

    public String identity() { return identity; }

    public boolean isLeading() { return leading; }

    /** Stands for election; returns at once. */
    public synchronized void start() {
        if (closed) throw new IllegalStateException("closed");
        var config = new LeaderElectionConfigBuilder()
                .withName(lease)
                .withLock(new LeaseLock(namespace, lease, identity))
                .withLeaseDuration(timing.leaseDuration())
                .withRenewDeadline(timing.renewDeadline())
                .withRetryPeriod(timing.retryPeriod())
                .withReleaseOnCancel()
                .withLeaderCallbacks(new LeaderCallbacks(
                        () -> transition(this::lead),
                        () -> transition(this::standBy),
                        leader -> LOG.info("lease {}/{}: the leader is {}", namespace, lease, leader)))
                .build();
        election = new LeaderElectorBuilder(client, elector).withConfig(config).build().start();
        // The elector ends at its first loss (or when it cannot reach the API server): stand again.
        election.whenComplete((ignored, error) -> {
            if (error != null && !closed) LOG.warn("lease {}/{}: election ended: {}", namespace, lease, error.toString());
            transition(() -> {
                standBy();
                synchronized (this) {
                    if (!closed) start();
                }
            });
        });
    }

    /** Runs a change of leadership on the transitions thread; after close only the final stand-down runs. */
    private void transition(Runnable change) {
        try {
            transitions.execute(change);
        } catch (RejectedExecutionException e) {
            LOG.debug("lease {}/{}: closed, ignoring a late change of leadership", namespace, lease);
        }
    }

    private void lead() {
        if (closed || leading) return;
        LOG.info("lease {}/{}: {} leads", namespace, lease, identity);
        leading = true;
        candidate.lead();
    }

    private void standBy() {
        if (!leading) return;
        LOG.info("lease {}/{}: {} stops leading", namespace, lease, identity);
        leading = false;
        candidate.standBy();
    }

    /** Stops acting, releases the Lease if held, and stops standing for election. */
    @Override
    public void close() {
        CompletableFuture<?> current;
        synchronized (this) {
            if (closed) return;
            closed = true;
            current = election;
        }
        // Stop acting first, then release the Lease (cancelling does, with releaseOnCancel): the other way
        // round, a successor could start while this replica's last cycles still run.
        transition(this::standBy);
        transitions.shutdown();
        try {
            if (!transitions.awaitTermination(60, TimeUnit.SECONDS)) LOG.warn("lease {}/{}: stand-down did not finish", namespace, lease);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (current != null) current.cancel(true);
        elector.shutdownNow();
        client.close();
    }

}
