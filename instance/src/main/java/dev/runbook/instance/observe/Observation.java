package dev.runbook.instance.observe;

/**
 * What the instance manager reads from the API server each pass: its own pod's role label, the
 * cluster's recorded intent, and the pod of the current primary when that is another instance.
 * {@code synchronous} is {@code spec.replication.synchronous}. {@code currentPrimaryPod} is null when there is no current primary or it is this instance.
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
        PeerPod currentPrimaryPod) {

    public static final String ROLE_LABEL = "postgres.runbook.dev/role";
    public static final String REPORTED_ROLE = "postgres.runbook.dev/reported-role";
    public static final String REPLAYED_LSN = "postgres.runbook.dev/replayed-lsn";
}
