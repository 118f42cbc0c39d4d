package dev.runbook.postgres.contract;

/**
 * Every key the postgres-cluster runbook and the instance manager exchange, named once: the labels
 * and annotations on pods and backup Jobs, the cluster's status and spec fields the instance manager
 * reads, the HTTP paths of an instance, and the token audience of its endpoints. The instance manager
 * uses these constants; the runbook's rules and templates write the same keys as strings, and a test
 * checks that each one they write is named here (docs/reference/postgres-contract.md lists who writes
 * and who reads each key, and what it means). The values exchanged under these keys are named in
 * {@link Role}, {@link PromotionReason} and {@link RestoreProgress}.
 */
public final class PostgresContract {

    private PostgresContract() {
    }

    private static final String PREFIX = "postgres.runbook.dev/";

    // ---- the custom resource -------------------------------------------------------------------

    /** The PostgresCluster's group and version. */
    public static final String API_VERSION = PREFIX + "v1alpha1";
    public static final String KIND = "PostgresCluster";

    // ---- labels ----------------------------------------------------------------------------------

    /** On every object of a cluster: the cluster's name. */
    public static final String CLUSTER_LABEL = PREFIX + "cluster";
    /** On an instance pod: the role the runbook wants it to play: primary, replica or fenced. */
    public static final String ROLE_LABEL = PREFIX + "role";
    /** On a backup Job and its pod: "true". */
    public static final String BACKUP_LABEL = PREFIX + "backup";
    /** On a backup Job's pod: the cluster it backs up (the pod is no instance, so it has no cluster label). */
    public static final String BACKUP_OF_LABEL = PREFIX + "backup-of";

    // ---- annotations an instance writes on its own pod -------------------------------------------

    /** What the instance runs as: primary, replica or fenced; absent otherwise. */
    public static final String REPORTED_ROLE = PREFIX + "reported-role";
    /** How far the instance has replayed (a primary: flushed) the WAL, in PostgreSQL's X/Y form ({@link Lsn}). */
    public static final String REPLAYED_LSN = PREFIX + "replayed-lsn";
    /** The primary lease the instance holds, reported before it holds a longer one (a duration such as 10s). */
    public static final String LEASE_DURATION = PREFIX + "lease-duration";
    /** Why the instance cannot play its role, while it cannot. */
    public static final String INSTANCE_PROBLEM = PREFIX + "instance-problem";
    /** The primary's replication slots: NAME=BYTES of WAL each holds back, comma-separated. */
    public static final String SLOT_WAL = PREFIX + "slot-wal";
    /** The last WAL file archived to the object store. */
    public static final String LAST_ARCHIVED_WAL = PREFIX + "last-archived-wal";
    /** While WAL archiving fails: "WAL FILE: the tool's message". */
    public static final String ARCHIVE_ERROR = PREFIX + "archive-error";
    /** A restore in progress ("restoring ...") or done ("restored ID"). */
    public static final String RESTORE = PREFIX + "restore";
    /** Why the last restore attempt failed. */
    public static final String RESTORE_ERROR = PREFIX + "restore-error";

    // ---- annotations on a backup Job -------------------------------------------------------------

    /** Written by the runbook: the instance the backup is taken from. */
    public static final String BACKUP_SOURCE = PREFIX + "backup-source";
    /** Written by the runbook: schedule or on-demand. */
    public static final String BACKUP_TRIGGER = PREFIX + "backup-trigger";
    /** Written by the runbook: the schedule slot (RFC 3339) a scheduled backup belongs to. */
    public static final String BACKUP_SLOT = PREFIX + "backup-slot";
    /** Written by the runbook: the spec.backup.onDemand token an on-demand backup answers. */
    public static final String BACKUP_REQUEST = PREFIX + "backup-request";
    /** Written by the Job's instance-manager backup: the backup's id in the store. */
    public static final String BACKUP_ID = PREFIX + "backup-id";
    /** Written by the Job: the backup's size in bytes. */
    public static final String BACKUP_SIZE = PREFIX + "backup-size";
    /** Written by the Job: the first WAL file the backup needs. */
    public static final String BACKUP_BEGIN_WAL = PREFIX + "backup-begin-wal";
    /** Written by the Job: the last WAL file the backup needs. */
    public static final String BACKUP_END_WAL = PREFIX + "backup-end-wal";
    /** Written by the Job: when the backup ended (RFC 3339). */
    public static final String BACKUP_END_TIME = PREFIX + "backup-end-time";
    /** Written by the Job: why the backup failed. */
    public static final String BACKUP_ERROR = PREFIX + "backup-error";
    /** Written by the Job: the backup was taken but its retention failed (nothing more was deleted). */
    public static final String RETENTION_ERROR = PREFIX + "retention-error";

    // ---- the cluster's fields the instance manager reads (dotted paths) -------------------------

    /** The instance recorded as primary. */
    public static final String CURRENT_PRIMARY = "status.currentPrimary";
    /** The instance to be primary; differs from the current one while a promotion is in progress. */
    public static final String TARGET_PRIMARY = "status.targetPrimary";
    /** Why the promotion in progress was started: failover or switchover. */
    public static final String PROMOTION_REASON = "status.promotionReason";
    /** The primary's last known WAL position; empty while the cluster never had a primary. */
    public static final String PRIMARY_LSN = "status.primaryLsn";
    /** How many instances the cluster has (pods NAME-0 ...). */
    public static final String INSTANCES = "spec.instances";
    /** Whether commits wait for a standby. */
    public static final String SYNCHRONOUS = "spec.replication.synchronous";
    /** How long a primary lease lasts. */
    public static final String LEASE_DURATION_FIELD = "spec.failover.leaseDuration";

    // ---- an instance's HTTP endpoints (port RUNBOOK_INSTANCE_HTTP_PORT, 8000) --------------------

    /** Readiness probe: 200 when the instance plays its role. */
    public static final String READYZ = "/readyz";
    /** Liveness probe: 200 while passes run. */
    public static final String HEALTHZ = "/healthz";
    /** POST: takes a base backup (the backup Job calls it); callers need a token of {@link #AUDIENCE}. */
    public static final String BACKUP_PATH = "/backup";
    /** GET: what the last pass found and decided, as JSON; callers need a token of {@link #AUDIENCE}. */
    public static final String STATUS_PATH = "/status";
    /** The audience of the ServiceAccount tokens the instance accepts on {@link #BACKUP_PATH} and {@link #STATUS_PATH}. */
    public static final String AUDIENCE = PREFIX + "instance";
    /** Where a backup Job's pod finds its projected token of {@link #AUDIENCE}. */
    public static final String CALLER_TOKEN_FILE = "/var/run/secrets/" + PREFIX + "caller/token";
}
