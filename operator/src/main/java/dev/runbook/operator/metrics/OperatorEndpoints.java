package dev.runbook.operator.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The operator's HTTP endpoints: {@code /metrics} for Prometheus, {@code /healthz} for the kubelet's
 * liveness probe, {@code /readyz} for its readiness probe, and {@code /decisions/NAMESPACE/NAME} for a
 * resource's last decisions when a history is kept (docs/why.md). GET only.
 *
 * <p>A check is a {@code Supplier<List<String>>} of problems, empty when all is well, so that the
 * response can say what is wrong ("bundle postgres-cluster: informers not synced"), one problem a line:
 * the kubelet only looks at the status, a person debugging a failing probe reads the body. A check that
 * throws counts as failing, with its error as the problem.
 */
public final class OperatorEndpoints implements AutoCloseable {
    public static final String METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    static final String TEXT = "text/plain; charset=utf-8";
    static final String JSON = "application/json";
    /** The prefix of {@code /decisions/NAMESPACE/NAME}: a primary's last decisions ({@link Decisions}). */
    public static final String DECISIONS = "/decisions/";

    /** A primary's last decisions as JSON, by namespace and name; empty when none is known. */
    @FunctionalInterface
    public interface Decisions {
        Decisions NONE = (namespace, name) -> java.util.Optional.empty();

        java.util.Optional<String> json(String namespace, String name);
    }

    /** A response: status, content type and body. */
    private record Response(int status, String contentType, String body) {
        static Response text(int status, String body) { return new Response(status, TEXT, body); }
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final Map<String, Supplier<Response>> routes;
    private final Decisions decisions;
    private final AtomicBoolean closed = new AtomicBoolean();

    private OperatorEndpoints(HttpServer server, ExecutorService executor, Map<String, Supplier<Response>> routes,
                              Decisions decisions) {
        this.server = server;
        this.executor = executor;
        this.routes = routes;
        this.decisions = decisions;
    }

    /**
     * Binds {@code address} (port 0 picks a free port, see {@link #port()}) and starts serving.
     *
     * @param metrics   the Prometheus text, e.g. {@code OperatorMetrics::scrape}
     * @param liveness  problems that should get the pod restarted: answered with 500
     * @param readiness problems that mean the operator cannot do its work yet: answered with 503
     */
    public static OperatorEndpoints start(InetSocketAddress address, Supplier<String> metrics,
                                          Supplier<List<String>> liveness, Supplier<List<String>> readiness)
            throws IOException {
        return start(address, metrics, liveness, readiness, null);
    }

    /**
     * As {@link #start(InetSocketAddress, Supplier, Supplier, Supplier)}, with {@code /decisions/NAMESPACE/NAME}
     * answered from {@code decisions} (null: not served, a 404 as any unknown path).
     */
    public static OperatorEndpoints start(InetSocketAddress address, Supplier<String> metrics,
                                          Supplier<List<String>> liveness, Supplier<List<String>> readiness,
                                          Decisions decisions) throws IOException {
        Map<String, Supplier<Response>> routes = Map.of(
                "/metrics", () -> new Response(200, METRICS_CONTENT_TYPE, metrics.get()),
                "/healthz", () -> probe(liveness, 500),
                "/readyz", () -> probe(readiness, 503));
        HttpServer server = HttpServer.create(address, 0);
        // Probes and scrapes are rare and quick; two threads keep a slow scrape from delaying a probe,
        // daemon threads keep the endpoints from holding the JVM up at shutdown.
        ExecutorService executor = Executors.newFixedThreadPool(2, daemonThreads());
        OperatorEndpoints endpoints = new OperatorEndpoints(server, executor, routes, decisions);
        server.createContext("/", endpoints::handle);
        server.setExecutor(executor);
        server.start();
        return endpoints;
    }

    /** The port bound, useful when the address asked for port 0. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** Stops at once: in-flight exchanges are not waited for, a probe or scrape will simply be retried. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) return;
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            // One context for "/" and exact paths: a context per path would also answer /metrics/anything.
            String path = exchange.getRequestURI().getPath();
            Supplier<Response> route = routes.get(path);
            if (route == null && decisions != null && path.startsWith(DECISIONS)) route = () -> decisions(path);
            Response response;
            if (route == null) {
                response = Response.text(404, "not found\n");
            } else if (!"GET".equals(exchange.getRequestMethod())) {
                exchange.getResponseHeaders().set("Allow", "GET");
                response = Response.text(405, "method not allowed\n");
            } else {
                response = answer(route);
            }
            send(exchange, response);
        }
    }

    /** {@code /decisions/NAMESPACE/NAME}: the JSON of the primary's last decisions, or 404 saying why there is none. */
    private Response decisions(String path) {
        String[] parts = path.substring(DECISIONS.length()).split("/", -1);
        if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
            return Response.text(404, "not found: ask for " + DECISIONS + "NAMESPACE/NAME\n");
        }
        return decisions.json(parts[0], parts[1]).map(json -> new Response(200, JSON, json))
                .orElseGet(() -> Response.text(404, "no decision of " + parts[0] + "/" + parts[1] + " is kept here: this replica "
                        + "has run no cycle of it since it started or since it leads (only the leader decides)\n"));
    }

    private static Response answer(Supplier<Response> route) {
        try {
            return route.get();
        } catch (RuntimeException e) {
            return Response.text(500, e + "\n");
        }
    }

    private static Response probe(Supplier<List<String>> check, int failingStatus) {
        List<String> problems;
        try {
            problems = check.get();
        } catch (RuntimeException e) {
            problems = List.of("the check failed: " + e);
        }
        if (problems == null || problems.isEmpty()) return Response.text(200, "ok\n");
        return Response.text(failingStatus, String.join("\n", problems) + "\n");
    }

    private static void send(HttpExchange exchange, Response response) throws IOException {
        byte[] body = response.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", response.contentType());
        exchange.sendResponseHeaders(response.status(), body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "runbook-endpoints-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
