package dev.runbook.postgres.contract;

import java.util.List;

/**
 * The roles of an instance, the values of two keys: the label {@link PostgresContract#ROLE_LABEL}, the
 * role the runbook wants a pod to play, and the annotation {@link PostgresContract#REPORTED_ROLE}, what
 * the instance runs as. An absent label or report is the empty string to both sides. The runbook's
 * rules and templates write them as strings; a test checks each one against {@link #ALL}
 * (docs/reference/postgres-contract.md#values).
 */
public final class Role {

    private Role() {
    }

    /** Serves writes: the read-write Service selects it. */
    public static final String PRIMARY = "primary";
    /** Follows the primary: the read-only Service selects it. */
    public static final String REPLICA = "replica";
    /** Must not serve: its server stops (a label), or has stopped (a report). */
    public static final String FENCED = "fenced";

    /** Every role, in the order above. */
    public static final List<String> ALL = List.of(PRIMARY, REPLICA, FENCED);
}
