package dev.runbook.instance.local;

import dev.runbook.instance.address.Address;
import dev.runbook.instance.postgres.Sql.WalReceiver;
import java.util.Map;

/**
 * The server as this instance finds it on each pass.
 *
 * @param running       a postmaster runs on the data directory
 * @param answering     it answers SQL within the inspection's limit (false while it starts, recovers,
 *                      stops, or hangs)
 * @param inRecovery    it runs as a standby ({@code pg_is_in_recovery()})
 * @param upstream      the instance a standby was last set to follow ("" when none)
 * @param lsn           the position to report, in X/Y form: flushed (primary), replayed (standby), or
 *                      the last checkpoint of a stopped server; "" when unknown
 * @param standbyNames  the server's {@code synchronous_standby_names} ("" when not running)
 * @param standbySignal the data directory holds {@code standby.signal}: a server started on it is a
 *                      standby; without it, a running server is (or becomes) a primary
 * @param receiver      the WAL receiver of a running standby, null when it has none
 * @param replicationMark the comment on the role streaming_replica ("" when none), see postgres.ReplicationRole
 * @param slots         a primary's physical replication slots, with the WAL each holds back in bytes
 * @param lastStreamedFrom the server this standby's WAL receiver last streamed from ({@code host:port}), kept in
 *                      the run directory across restarts; "" when it never did
 */
public record LocalState(DataState data, boolean running, boolean answering, boolean inRecovery, String upstream, String lsn,
                         String standbyNames, boolean standbySignal, WalReceiver receiver, String replicationMark, Map<String, Long> slots,
                         String lastStreamedFrom) {

    /** The state without the WAL receiver and the signal file: a stopped or unanswering server, or one of the tests' shorthands. */
    public LocalState(DataState data, boolean running, boolean answering, boolean inRecovery, String upstream, String lsn, String standbyNames) {
        this(data, running, answering, inRecovery, upstream, lsn, standbyNames, inRecovery, null);
    }

    /** The state without what only a running primary says (its replication role's mark, its slots). */
    public LocalState(DataState data, boolean running, boolean answering, boolean inRecovery, String upstream, String lsn, String standbyNames,
                      boolean standbySignal, WalReceiver receiver) {
        this(data, running, answering, inRecovery, upstream, lsn, standbyNames, standbySignal, receiver, "", Map.of(), "");
    }

    /** The state with what a running primary says, and no record of whom it streamed from. */
    public LocalState(DataState data, boolean running, boolean answering, boolean inRecovery, String upstream, String lsn, String standbyNames,
                      boolean standbySignal, WalReceiver receiver, String replicationMark, Map<String, Long> slots) {
        this(data, running, answering, inRecovery, upstream, lsn, standbyNames, standbySignal, receiver, replicationMark, slots, "");
    }

    /** It runs as a standby and its WAL receiver streams from {@code server}. */
    public boolean streamingFrom(Address server) {
        return running && answering && inRecovery && receiver != null && receiver.streamingFrom(server);
    }

    /** A server runs that is, or may be, a primary: out of recovery, or not answering without a standby.signal. */
    public boolean mayTakeWrites() {
        return running && (answering ? !inRecovery : !standbySignal);
    }
}
