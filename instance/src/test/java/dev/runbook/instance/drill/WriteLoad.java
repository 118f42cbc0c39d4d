package dev.runbook.instance.drill;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * A client that commits numbered rows, one per transaction, to whatever the read-write service
 * would select (the pod labelled primary), and records every commit the server acknowledged. On an
 * error it drops the connection and asks again which instance is the primary, as an application
 * behind the NAME-rw service reconnects.
 */
final class WriteLoad implements AutoCloseable {
    private static final long PAUSE_MS = 20;

    /**
     * One acknowledged commit: when (monotonic, for durations), on which server, and on the wall clock
     * (shared with the servers on this machine) when the insert was sent and when it was acknowledged:
     * a commit lies between the two, which is what a point-in-time restore is checked against.
     */
    record Ack(long id, long atNanos, int port, long sentAtMillis, long ackedAtMillis) {
    }

    private final Supplier<Integer> primaryPort;
    private final String password;
    private final List<Ack> acked = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean stop;
    private long next = 1;

    WriteLoad(Supplier<Integer> primaryPort, String password) {
        this.primaryPort = primaryPort;
        this.password = password;
        this.thread = new Thread(this::run, "write-load");
        thread.setDaemon(true);
    }

    static void createTable(int port, String password) throws SQLException {
        try (Connection c = connect(port, password); Statement s = c.createStatement()) {
            s.execute("create table if not exists drill_writes (id bigint primary key, at timestamptz not null default now())");
        }
    }

    void start() {
        thread.start();
    }

    List<Ack> acked() {
        return List.copyOf(acked);
    }

    /** The first acknowledgement after {@code sinceNanos} by a server other than the one on {@code oldPort}, or -1. */
    long firstAckAfter(long sinceNanos, int oldPort) {
        for (Ack a : acked) {
            if (a.atNanos() > sinceNanos && a.port() != oldPort) {
                return a.atNanos();
            }
        }
        return -1;
    }

    /** The last acknowledgement by the server on {@code port}, or -1. */
    long lastAckOn(int port) {
        long last = -1;
        for (Ack a : acked) {
            if (a.port() == port) {
                last = a.atNanos();
            }
        }
        return last;
    }

    /** Every id the server on {@code port} has. */
    static Set<Long> present(int port, String password) throws SQLException {
        Set<Long> present = new HashSet<>();
        try (Connection c = connect(port, password); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select id from drill_writes")) {
            while (r.next()) {
                present.add(r.getLong(1));
            }
        }
        return present;
    }

    /** Acknowledged ids in a window that the server on {@code port} does not have. */
    static Set<Long> missing(List<Ack> window, int port, String password) throws SQLException {
        Set<Long> present = present(port, password);
        Set<Long> lost = new HashSet<>();
        window.forEach(a -> {
            if (!present.contains(a.id())) {
                lost.add(a.id());
            }
        });
        return lost;
    }

    private void run() {
        Connection c = null;
        int port = 0;
        while (!stop) {
            try {
                if (c == null) {
                    Integer primary = primaryPort.get();
                    if (primary == null) {
                        PgSessions.pause(200);
                        continue;
                    }
                    port = primary;
                    c = connect(port, password);
                }
                long id = next++;
                long sentAt = System.currentTimeMillis();
                try (PreparedStatement p = c.prepareStatement("insert into drill_writes (id) values (?)")) {
                    p.setLong(1, id);
                    p.executeUpdate();
                }
                acked.add(new Ack(id, System.nanoTime(), port, sentAt, System.currentTimeMillis()));
                PgSessions.pause(PAUSE_MS);
            } catch (SQLException | RuntimeException e) {
                PgSessions.closeQuietly(c);
                c = null;
                PgSessions.pause(100);
            }
        }
        PgSessions.closeQuietly(c);
    }

    static Connection connect(int port, String password) throws SQLException {
        return PgSessions.connect(port, password, "drill-writes");
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        thread.join(10_000);
    }
}
