package dev.runbook.postgres.contract;

import java.util.List;

/**
 * Why the promotion in progress was started, the values of {@link PostgresContract#PROMOTION_REASON}:
 * the runbook writes them, and the target instance reads them (a switchover target waits to replay up
 * to where the old primary stopped; a failover target does not wait for a primary that failed).
 * docs/reference/postgres-contract.md#values.
 */
public final class PromotionReason {

    private PromotionReason() {
    }

    /** The primary failed; the best replica is promoted. */
    public static final String FAILOVER = "failover";
    /** Asked for (spec.primary), or needed by an upgrade or a scale-down: the primary is healthy. */
    public static final String SWITCHOVER = "switchover";

    /** Every reason, in the order above. */
    public static final List<String> ALL = List.of(FAILOVER, SWITCHOVER);
}
