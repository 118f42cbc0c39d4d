package dev.runbook.postgres.contract;

import java.util.List;

/**
 * How a restoring instance reports its progress in {@link PostgresContract#RESTORE}: a value that
 * starts with {@link #RESTORING} while it restores, and {@link #RESTORED} followed by the backup's id
 * once it has; the runbook records that id in status.restoredBackup.
 * docs/reference/postgres-contract.md#values.
 */
public final class RestoreProgress {

    private RestoreProgress() {
    }

    /** Followed by what is restored, from where. */
    public static final String RESTORING = "restoring ";
    /** Followed by the restored backup's id. */
    public static final String RESTORED = "restored ";

    /** Both prefixes, in the order above. */
    public static final List<String> ALL = List.of(RESTORING, RESTORED);
}
