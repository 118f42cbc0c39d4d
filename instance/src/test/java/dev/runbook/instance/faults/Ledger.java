package dev.runbook.instance.faults;

import dev.runbook.instance.drill.PgSessions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The fault suite's own client, written apart from the drills' writer: a few sessions, each on a
 * connection of its own to the server the read-write service selects (the pod labelled primary)
 * when it connects, kept until it fails, as an application's connection pool keeps them (a Service
 * does not cut established connections when its endpoints change). Each session inserts numbered
 * rows, one per transaction, and the ledger records every commit a server acknowledged: which server,
 * when the server began the insert (its {@code clock_timestamp()}, this machine's clock), and when
 * the acknowledgement arrived.
 */
final class Ledger implements AutoCloseable {
    static final String TABLE = "fault_ledger";
    private static final int SESSIONS = 6;
    private static final int LIGHT_SESSIONS = 2;
    private static final long LIGHT_PAUSE_MS = 25;

    /**
     * One acknowledged commit.
     *
     * @param serverMicros when the server began the insert (epoch microseconds, the server's clock)
     * @param ackNanos     when the acknowledgement arrived ({@link System#nanoTime()})
     */
    record Ack(long id, int port, long serverMicros, long ackNanos) {
    }

    private final Supplier<Integer> primaryPort;
    private final String password;
    private final List<Ack> acked = new CopyOnWriteArrayList<>();
    private final AtomicLong next = new AtomicLong(1);
    private final List<Thread> sessions = new ArrayList<>();
    private volatile int active = LIGHT_SESSIONS;
    private volatile boolean heavy;
    private volatile boolean stop;

    Ledger(Supplier<Integer> primaryPort, String password) {
        this.primaryPort = primaryPort;
        this.password = password;
    }

    static void createTable(int port, String password) throws SQLException {
        try (Connection c = connect(port, password); Statement s = c.createStatement()) {
            s.execute("create table if not exists " + TABLE + " (id bigint primary key, at timestamptz not null default clock_timestamp())");
        }
    }

    void start() {
        for (int i = 0; i < SESSIONS; i++) {
            int session = i;
            Thread t = new Thread(() -> run(session), "ledger-" + i);
            t.setDaemon(true);
            sessions.add(t);
            t.start();
        }
    }

    /** Heavy: every session writes without a pause; light: two sessions, about 40 commits a second each. */
    void heavy(boolean on) {
        heavy = on;
        active = on ? SESSIONS : LIGHT_SESSIONS;
    }

    int size() {
        return acked.size();
    }

    List<Ack> since(int from) {
        List<Ack> all = List.copyOf(acked);
        return all.subList(Math.min(from, all.size()), all.size());
    }

    /** The first acknowledgement after {@code sinceNanos} by the server on {@code port}, or -1. */
    long firstAckAfter(long sinceNanos, int port) {
        for (Ack a : acked) {
            if (a.ackNanos() > sinceNanos && a.port() == port) {
                return a.ackNanos();
            }
        }
        return -1;
    }

    /** Every id the server on {@code port} holds. */
    static Set<Long> present(int port, String password) throws SQLException {
        Set<Long> ids = new HashSet<>();
        try (Connection c = connect(port, password); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select id from " + TABLE)) {
            while (r.next()) {
                ids.add(r.getLong(1));
            }
        }
        return ids;
    }

    private void run(int session) {
        Connection c = null;
        int port = 0;
        while (!stop) {
            if (session >= active) {
                PgSessions.closeQuietly(c);
                c = null;
                PgSessions.pause(200);
                continue;
            }
            try {
                if (c == null) {
                    Integer primary = primaryPort.get();
                    if (primary == null) {
                        PgSessions.pause(100);
                        continue;
                    }
                    port = primary;
                    c = connect(port, password);
                }
                long id = next.getAndIncrement();
                try (PreparedStatement p = c.prepareStatement("insert into " + TABLE + " (id) values (?)"
                        + " returning (extract(epoch from at) * 1000000)::bigint")) {
                    p.setLong(1, id);
                    try (ResultSet r = p.executeQuery()) {
                        r.next();
                        acked.add(new Ack(id, port, r.getLong(1), System.nanoTime()));
                    }
                }
                if (!heavy) {
                    PgSessions.pause(LIGHT_PAUSE_MS);
                }
            } catch (SQLException | RuntimeException e) {
                PgSessions.closeQuietly(c);
                c = null;
                PgSessions.pause(100);
            }
        }
        PgSessions.closeQuietly(c);
    }

    static Connection connect(int port, String password) throws SQLException {
        return PgSessions.connect(port, password, "fault-ledger");
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        for (Thread t : sessions) {
            t.join(10_000);
        }
    }
}
