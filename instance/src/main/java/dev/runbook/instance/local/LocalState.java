package dev.runbook.instance.local;

/**
 * The server as this instance finds it on each pass.
 *
 * @param running     a postmaster runs on the data directory
 * @param answering   it answers SQL (false while it starts, recovers or stops)
 * @param inRecovery  it runs as a standby ({@code pg_is_in_recovery()})
 * @param upstream    the instance a standby was last set to follow ("" when none)
 * @param lsn         the position to report, in X/Y form: flushed (primary), replayed (standby), or
 *                    the last checkpoint of a stopped server; "" when unknown
 * @param standbyNames the server's {@code synchronous_standby_names} ("" when not running)
 */
public record LocalState(DataState data, boolean running, boolean answering, boolean inRecovery, String upstream, String lsn,
                         String standbyNames) {
}
