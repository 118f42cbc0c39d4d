package dev.runbook.instance.drill;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * What the test clients of the loopback tier share: a connection as the superuser to a server on
 * 127.0.0.1 with short limits (2 s to connect, 5 s for an answer: a hung server is an error, not a
 * wait), closing one that may be gone, and a client's pause between two writes.
 */
public final class PgSessions {
    private PgSessions() {}

    public static Connection connect(int port, String password, String applicationName) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", "postgres");
        props.setProperty("password", password);
        props.setProperty("connectTimeout", "2");
        props.setProperty("socketTimeout", "5");
        props.setProperty("ApplicationName", applicationName);
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres", props);
    }

    public static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // the server is gone already
            }
        }
    }

    /** A client's pacing between two writes, not a wait for a condition. */
    public static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
