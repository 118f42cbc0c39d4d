package dev.runbook.instance.decide;

/** The one thing a pass does. Each is safe to ask for again: the next pass re-decides from what it sees. */
public enum Step {
    /** Nothing to do yet, or nothing to do at all. */
    WAIT,
    /** Make a new database (only into an empty data directory). */
    INITDB,
    /** Restore a backup from the object store into the empty data directory (a new cluster's first primary), recover, promote. */
    RESTORE,
    /** Start the server as the primary. */
    START_PRIMARY,
    /** Start the server as a standby of the upstream, as it is. */
    START_STANDBY,
    /** Copy the upstream's data (pg_basebackup) into the empty data directory, then start as its standby. */
    CLONE,
    /** pg_rewind onto the upstream's timeline, then start as its standby. */
    REWIND,
    /** Promote the standby. */
    PROMOTE,
    /** Set the primary's synchronous_standby_names to what spec.replication.synchronous asks for. */
    SET_SYNCHRONOUS,
    /** Create or set the replication role, streaming_replica, as postgres.ReplicationRole says (the primary). */
    ENSURE_REPLICATION_ROLE,
    /** Keep one physical replication slot for every other instance of spec.instances, and drop the others unused (the primary). */
    SYNC_SLOTS,
    /** Stop the server: fenced, or about to follow another primary. */
    STOP,
    /**
     * Kill the server at once (SIGKILL to the postmaster and every session, as the lease's watchdog
     * does): it does not answer, so it cannot be stopped cleanly, and it may take writes while another
     * instance is to be the primary.
     */
    KILL,
    /** Nothing may be done safely: report why and keep the data as it is. */
    REFUSE
}
