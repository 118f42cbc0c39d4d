package dev.runbook.instance.observe;

import dev.runbook.postgres.contract.Role;
import java.time.Duration;
import java.util.List;

/**
 * What the instance manager reads from the API server each pass: its own pod's role label, the
 * cluster's recorded intent, and the pod of the current primary when that is another instance.
 * {@code synchronous} is {@code spec.replication.synchronous}; {@code leaseDuration} is
 * {@code spec.failover.leaseDuration} (docs/instance-manager.md#fencing), and {@code reportedLease}
 * the lease duration this instance last reported on its own pod (null when none). {@code instances}
 * names the pods {@code spec.instances} asks for ({@code NAME-0} ...), whom the primary keeps slots for.
 * {@code currentPrimaryPod} is null when there is no current primary or it is this instance.
 */
public record Observation(
        boolean podFound,
        String roleLabel,
        boolean clusterFound,
        String currentPrimary,
        String targetPrimary,
        String promotionReason,
        String primaryLsn,
        boolean synchronous,
        PeerPod currentPrimaryPod,
        Duration leaseDuration,
        Duration reportedLease,
        List<String> instances) {

    /** spec.failover.leaseDuration when the spec does not set it. */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(10);

    /** The observation without the lease settings (the default lease, none reported). */
    public Observation(boolean podFound, String roleLabel, boolean clusterFound, String currentPrimary, String targetPrimary,
                       String promotionReason, String primaryLsn, boolean synchronous, PeerPod currentPrimaryPod) {
        this(podFound, roleLabel, clusterFound, currentPrimary, targetPrimary, promotionReason, primaryLsn, synchronous, currentPrimaryPod,
                DEFAULT_LEASE, null);
    }

    /** The observation without the instances' names (none: no slots to keep). */
    public Observation(boolean podFound, String roleLabel, boolean clusterFound, String currentPrimary, String targetPrimary,
                       String promotionReason, String primaryLsn, boolean synchronous, PeerPod currentPrimaryPod, Duration leaseDuration,
                       Duration reportedLease) {
        this(podFound, roleLabel, clusterFound, currentPrimary, targetPrimary, promotionReason, primaryLsn, synchronous, currentPrimaryPod,
                leaseDuration, reportedLease, List.of());
    }

    /** The same observation with the current primary's pod read too. */
    public Observation withCurrentPrimaryPod(PeerPod pod) {
        return new Observation(podFound, roleLabel, clusterFound, currentPrimary, targetPrimary, promotionReason, primaryLsn, synchronous, pod,
                leaseDuration, reportedLease, instances);
    }

    /**
     * This instance may take writes: the cluster records it as the one to be primary
     * ({@code status.targetPrimary}) and its pod is not labelled fenced. Only then is its lease renewed.
     */
    public boolean entitled(String self) {
        return podFound && clusterFound && self.equals(targetPrimary) && !Role.FENCED.equals(roleLabel);
    }

    /** The lease to renew now: the spec's, but no longer than the one already reported (a longer one is reported first). */
    public Duration leaseToHold() {
        return reportedLease == null || reportedLease.compareTo(leaseDuration) >= 0 ? leaseDuration : reportedLease;
    }
}
