package dev.runbook.instance.postgres;

import dev.runbook.instance.address.Address;
import dev.runbook.instance.config.Settings;
import dev.runbook.instance.tls.ClusterCa;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.postgresql.PGConnection;

/** The few SQL statements the instance manager needs, over JDBC, one short connection each. */
public final class Sql {
    private static final int CONNECT_TIMEOUT_SECONDS = 3;
    private static final int SOCKET_TIMEOUT_SECONDS = 30;
    /**
     * A pass asks its own server with this limit: a server that takes longer to say whether it is in
     * recovery is hung, and the pass goes on to say so (the probe turns not ready) rather than waiting.
     */
    private static final int INSPECT_TIMEOUT_SECONDS = 5;

    private final Settings settings;

    public Sql(Settings settings) {
        this.settings = settings;
    }

    /**
     * What the local server says about itself. {@code receiver} is its WAL receiver (a standby's): the
     * server it streams from and whether it streams, or null when it has none.
     */
    public record ServerState(boolean inRecovery, String lsn, String standbyNames, WalReceiver receiver, String replicationMark) {
    }

    /** {@code pg_stat_wal_receiver}: its status ({@code streaming}, {@code waiting}, ...) and the server it is connected to. */
    public record WalReceiver(String status, Address sender) {
        public boolean streamingFrom(Address server) {
            return "streaming".equals(status) && server.equals(sender);
        }
    }

    public ServerState local() throws SQLException {
        try (Connection c = connect(new Address("127.0.0.1", settings.port()), INSPECT_TIMEOUT_SECONDS); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select pg_is_in_recovery(), case when pg_is_in_recovery()"
                     + " then coalesce(pg_last_wal_replay_lsn(), pg_last_wal_receive_lsn())::text"
                     + " else pg_current_wal_flush_lsn()::text end, current_setting('synchronous_standby_names'),"
                     + " w.status, w.sender_host, w.sender_port,"
                     + " (select shobj_description(oid, 'pg_authid') from pg_roles where rolname = '" + ReplicationRole.USER + "')"
                     + " from (select 1) one left join pg_stat_wal_receiver w on true")) {
            r.next();
            WalReceiver receiver = r.getString(4) == null ? null
                    : new WalReceiver(r.getString(4), new Address(Objects.toString(r.getString(5), ""), r.getInt(6)));
            return new ServerState(r.getBoolean(1), r.getString(2) == null ? "" : r.getString(2), r.getString(3), receiver,
                    Objects.toString(r.getString(7), ""));
        }
    }

    /**
     * The primary's physical replication slots that the instance manager keeps (named {@code runbook_...};
     * a tool's own, such as pg_basebackup's temporary one, are not its business), and how much WAL each
     * holds back, in bytes (0 for one that holds none yet).
     */
    public Map<String, Long> slots() throws SQLException {
        Map<String, Long> slots = new TreeMap<>();
        try (Connection c = connect(new Address("127.0.0.1", settings.port()), INSPECT_TIMEOUT_SECONDS); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select slot_name, coalesce(pg_current_wal_lsn() - restart_lsn, 0)::bigint"
                     + " from pg_replication_slots where slot_type = 'physical' and slot_name like '" + ReplicationRole.SLOT_PREFIX + "%'")) {
            while (r.next()) {
                slots.put(r.getString(1), r.getLong(2));
            }
        }
        return slots;
    }

    /** Creates the slots named and not there (reserving WAL at once), drops the others that no standby uses. */
    public void syncSlots(Set<String> wanted) throws SQLException {
        try (Connection c = connect(new Address("127.0.0.1", settings.port())); Statement s = c.createStatement()) {
            Set<String> present = new TreeSet<>();
            try (ResultSet r = s.executeQuery("select slot_name from pg_replication_slots where slot_type = 'physical' and not active"
                    + " and slot_name like '" + ReplicationRole.SLOT_PREFIX + "%'")) {
                while (r.next()) {
                    present.add(r.getString(1));
                }
            }
            for (String slot : present) {
                if (!wanted.contains(slot)) {
                    drop(c, slot);
                }
            }
            for (String slot : wanted) {
                try (PreparedStatement p = c.prepareStatement("select pg_create_physical_replication_slot(?, true)"
                        + " where not exists (select 1 from pg_replication_slots where slot_name = ?)")) {
                    p.setString(1, slot);
                    p.setString(2, slot);
                    p.execute();
                }
            }
        }
    }

    private static void drop(Connection c, String slot) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("select pg_drop_replication_slot(?)")) {
            p.setString(1, slot);
            p.execute();
        }
    }

    /**
     * The replication role as {@link ReplicationRole} says, with this password, and its mark last, so
     * that a mark means all of it is done. The password goes to the server as a SCRAM verifier computed
     * here, never as text a log line could keep.
     */
    public void ensureReplicationRole(String password, String mark) throws SQLException {
        try (Connection c = connect(new Address("127.0.0.1", settings.port())); Statement s = c.createStatement()) {
            s.execute("do $$ begin if not exists (select from pg_roles where rolname = '" + ReplicationRole.USER + "') then"
                    + " create role " + ReplicationRole.USER + " login replication; end if; end $$");
            s.execute("alter role " + ReplicationRole.USER + " login replication nosuperuser nocreatedb nocreaterole");
            c.unwrap(PGConnection.class).alterUserPassword(ReplicationRole.USER, password.toCharArray(), "scram-sha-256");
            s.execute(ReplicationRole.REWIND_GRANTS);
            s.execute("comment on role " + ReplicationRole.USER + " is '" + mark.replace("'", "''") + "'");
        }
    }

    /** A checkpoint right after promotion, so that pg_rewind reads the new timeline from the control file. */
    public void checkpoint() throws SQLException {
        try (Connection c = connect(new Address("127.0.0.1", settings.port())); Statement s = c.createStatement()) {
            s.execute("checkpoint");
        }
    }

    /**
     * Sets {@code synchronous_standby_names} on the primary ("" for asynchronous replication) and
     * reloads. ALTER SYSTEM takes no bind parameters; the value is one of the instance manager's own
     * constants, quoted as a literal all the same.
     */
    public void setStandbyNames(String value) throws SQLException {
        try (Connection c = connect(new Address("127.0.0.1", settings.port())); Statement s = c.createStatement()) {
            s.execute("alter system set synchronous_standby_names = '" + value.replace("'", "''") + "'");
            s.execute("select pg_reload_conf()");
        }
    }

    /** What pg_stat_archiver says: the last WAL file archived and the last that failed, with when ("" and null when none). */
    public record Archiver(String lastArchivedWal, Instant lastArchivedTime, String lastFailedWal, Instant lastFailedTime) {
    }

    public Archiver archiver() throws SQLException {
        try (Connection c = connect(new Address("127.0.0.1", settings.port())); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select last_archived_wal, last_archived_time, last_failed_wal, last_failed_time from pg_stat_archiver")) {
            r.next();
            return new Archiver(Objects.toString(r.getString(1), ""), instant(r.getTimestamp(2)), Objects.toString(r.getString(3), ""),
                    instant(r.getTimestamp(4)));
        }
    }

    /** A CHECKPOINT on another server (the primary a standby follows); returns its WAL position after it. */
    public String checkpoint(Address server) throws SQLException {
        try (Connection c = connect(server); Statement s = c.createStatement()) {
            s.execute("checkpoint");
            try (ResultSet r = s.executeQuery("select pg_current_wal_lsn()::text")) {
                r.next();
                return r.getString(1);
            }
        }
    }

    /**
     * Ends the current WAL file on {@code primary} ({@code pg_switch_wal()}), so that it is archived now:
     * after a backup taken on a standby, whose last WAL file only the primary archives.
     */
    public String switchWal(Address primary) throws SQLException {
        try (Connection c = connect(primary); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select pg_walfile_name(pg_switch_wal())")) {
            r.next();
            return r.getString(1);
        }
    }

    /** The local server runs as a standby. */
    public boolean inRecovery() throws SQLException {
        return local().inRecovery();
    }

    /** The server's TimeZone: Barman Cloud prints a backup's times in it, without saying which. */
    public ZoneId timeZone() throws SQLException {
        try (Connection c = connect(new Address("127.0.0.1", settings.port())); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select current_setting('TimeZone')")) {
            r.next();
            return ZoneId.of(r.getString(1));
        }
    }

    private static Instant instant(java.sql.Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    /** Who another server says it is: its cluster_name and its system identifier. */
    public record Identity(String clusterName, String systemIdentifier, String unverified) {
        /** @param unverified "" when the server's certificate was checked, else why it could not be (then read without). */
        public Identity(String clusterName, String systemIdentifier) {
            this(clusterName, systemIdentifier, "");
        }
    }

    public Identity identity(Address address) throws SQLException {
        return identity(connect(address));
    }

    /**
     * Who another server says it is, over TLS and SCRAM bound to the channel but without checking its
     * certificate against this data directory's authority: for naming what a server is when that check
     * failed (a data directory of another cluster brings that cluster's authority). Nothing else is read.
     */
    public Identity identityUnverified(Address address) throws SQLException {
        return identity(connect(address, SOCKET_TIMEOUT_SECONDS, false));
    }

    /** Whether a connection failed on the server's certificate, not on the network or the password. */
    public static boolean certificateRejected(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof javax.net.ssl.SSLHandshakeException || t instanceof java.security.cert.CertificateException) {
                return true;
            }
        }
        return false;
    }

    private static Identity identity(Connection connection) throws SQLException {
        try (Connection c = connection; Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select current_setting('cluster_name'), system_identifier::text from pg_control_system()")) {
            r.next();
            return new Identity(r.getString(1), r.getString(2));
        }
    }

    private Connection connect(Address address) throws SQLException {
        return connect(address, SOCKET_TIMEOUT_SECONDS);
    }

    private Connection connect(Address address, int socketTimeoutSeconds) throws SQLException {
        return connect(address, socketTimeoutSeconds, true);
    }

    private Connection connect(Address address, int socketTimeoutSeconds, boolean checkAuthority) throws SQLException {
        Properties props = new Properties();
        if (!"127.0.0.1".equals(address.host()) || address.port() != settings.port()) {
            // Another instance: TLS, its certificate checked against the cluster's authority when this data has it
            // (a new replica has not cloned it yet), and SCRAM bound to the TLS channel either way, so that a server
            // that does not know the password cannot stand in for the other instance.
            ClusterCa ca = new ClusterCa(settings.dataDir());
            boolean verify = checkAuthority && ca.exists();
            props.setProperty("sslmode", verify ? "verify-full" : "require");
            if (verify) {
                props.setProperty("sslrootcert", ca.certificate().toString());
            }
            props.setProperty("channelBinding", "require");
        }
        props.setProperty("user", Settings.SUPERUSER);
        props.setProperty("password", settings.password());
        props.setProperty("connectTimeout", Integer.toString(CONNECT_TIMEOUT_SECONDS));
        props.setProperty("socketTimeout", Integer.toString(socketTimeoutSeconds));
        // A server that accepts the TCP connection but never answers (SIGSTOPped, hung) must not hold the pass either.
        props.setProperty("loginTimeout", Integer.toString(socketTimeoutSeconds));
        props.setProperty("ApplicationName", "runbook-instance-manager");
        return DriverManager.getConnection("jdbc:postgresql://" + address.host() + ":" + address.port() + "/postgres", props);
    }
}
