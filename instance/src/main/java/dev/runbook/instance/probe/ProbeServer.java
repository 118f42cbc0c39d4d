package dev.runbook.instance.probe;

import dev.runbook.postgres.contract.PostgresContract;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;

/**
 * The pod's probes. {@code /readyz}: 200 while the instance plays the role it was given, as a pass
 * that is not older than {@code unready} found (see docs/instance-manager.md#probes), 503 with the
 * reason otherwise. {@code /healthz}: 200 while the
 * manager's loop keeps turning (its last pass is younger than {@code stale}).
 */
public final class ProbeServer implements AutoCloseable {
    private final HttpServer server;
    private final Clock clock;
    private final Duration stale;
    private final Duration unready;
    private volatile boolean ready;
    private volatile String why = "starting";
    private volatile Instant lastPass;
    private volatile String acting;

    /**
     * {@code stale}: /healthz fails once the last pass is older (the kubelet restarts the container);
     * {@code unready}: /readyz fails once the last pass is older, whatever that pass said.
     */
    public ProbeServer(int port, Clock clock, Duration stale, Duration unready) throws IOException {
        this.clock = clock;
        this.stale = stale;
        this.unready = unready;
        this.lastPass = clock.instant();
        this.server = HttpServer.create(new InetSocketAddress(port), 16);
        server.createContext(PostgresContract.READYZ, exchange -> {
            // The last pass's answer holds only while it is fresh: a pass blocked on a hung server, or a manager
            // that was paused and has just resumed, must not vouch for a state nobody has looked at since.
            Duration age = Duration.between(lastPass, clock.instant());
            boolean fresh = age.compareTo(unready) < 0;
            answer(exchange, ready && fresh, fresh ? why : "no pass for " + age.toSeconds() + " s (the last said: " + why + ")");
        });
        server.createContext(PostgresContract.HEALTHZ, exchange -> {
            // A step that takes long (a restore, a clone) is no hung loop: the tools it runs have time limits of their own.
            String step = acting;
            boolean alive = step != null || Duration.between(lastPass, clock.instant()).compareTo(stale) < 0;
            answer(exchange, alive, step != null ? "ok, " + step : alive ? "ok" : "no pass since " + lastPass);
        });
        // More than one thread: a backup request (POST /backup) takes minutes, the probes must not wait for it.
        server.setExecutor(Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "probes");
            t.setDaemon(true);
            return t;
        }));
        server.start();
    }

    /** Serves another path on the same port (the backup endpoint). */
    public void route(String path, HttpHandler handler) {
        server.createContext(path, handler);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** A step runs (null: none); /healthz stays 200 while it does. */
    public void acting(String step) {
        this.acting = step == null ? null : step + " since " + clock.instant();
    }

    public void passed(boolean ready, String why) {
        this.ready = ready;
        this.why = why;
        this.lastPass = clock.instant();
    }

    private static void answer(HttpExchange exchange, boolean ok, String body) throws IOException {
        byte[] bytes = (body + "\n").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(ok ? 200 : 503, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
