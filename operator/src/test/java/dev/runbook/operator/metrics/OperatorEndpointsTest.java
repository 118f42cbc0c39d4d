package dev.runbook.operator.metrics;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OperatorEndpointsTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final OperatorMetrics metrics = new OperatorMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    private final AtomicReference<List<String>> livenessProblems = new AtomicReference<>(List.of());
    private final AtomicReference<List<String>> readinessProblems = new AtomicReference<>(List.of());
    private OperatorEndpoints endpoints;

    @BeforeEach
    void start() throws IOException {
        endpoints = OperatorEndpoints.start(new InetSocketAddress("127.0.0.1", 0),
                metrics::scrape, livenessProblems::get, readinessProblems::get);
    }

    @AfterEach
    void stop() {
        endpoints.close();
        metrics.close();
    }

    @Test
    void metricsServesTheScrapeAsPrometheusText() throws Exception {
        metrics.reloadAccepted("web-app");

        HttpResponse<String> response = get("/metrics");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(response.body().lines())
                .contains("runbook_bundle_reloads_total{bundle=\"web-app\",result=\"accepted\"} 1.0");
    }

    @Test
    void decisionsServesAPrimarysDecisionsAsJsonAndSaysWhyThereAreNone() throws Exception {
        endpoints.close();
        endpoints = OperatorEndpoints.start(new InetSocketAddress("127.0.0.1", 0), metrics::scrape, livenessProblems::get,
                readinessProblems::get, (namespace, name) -> namespace.equals("demo") && name.equals("shop")
                        ? java.util.Optional.of("{\"decisions\":[]}") : java.util.Optional.empty());

        HttpResponse<String> kept = get("/decisions/demo/shop");
        assertThat(kept.statusCode()).isEqualTo(200);
        assertThat(kept.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(kept.body()).isEqualTo("{\"decisions\":[]}");

        HttpResponse<String> none = get("/decisions/demo/other");
        assertThat(none.statusCode()).isEqualTo(404);
        assertThat(none.body()).startsWith("no decision of demo/other is kept here");
        assertThat(get("/decisions/demo").statusCode()).isEqualTo(404);
        assertThat(get("/decisions/demo/shop/x").statusCode()).isEqualTo(404);
    }

    @Test
    void decisionsIsNotServedWithoutAHistory() throws Exception {
        HttpResponse<String> response = get("/decisions/demo/shop");
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body()).isEqualTo("not found\n");
    }

    @Test
    void healthzIsOkWhileTheLivenessCheckFindsNothing() throws Exception {
        HttpResponse<String> healthy = get("/healthz");
        assertThat(healthy.statusCode()).isEqualTo(200);
        assertThat(healthy.body()).isEqualTo("ok\n");

        livenessProblems.set(List.of("cycle thread stuck for 5m", "informers stopped"));
        HttpResponse<String> unhealthy = get("/healthz");

        assertThat(unhealthy.statusCode()).isEqualTo(500);
        assertThat(unhealthy.body()).isEqualTo("cycle thread stuck for 5m\ninformers stopped\n");
    }

    @Test
    void readyzSaysWhyTheOperatorIsNotReady() throws Exception {
        readinessProblems.set(List.of("bundle postgres-cluster: informers not synced"));

        HttpResponse<String> notReady = get("/readyz");

        assertThat(notReady.statusCode()).isEqualTo(503);
        assertThat(notReady.body()).isEqualTo("bundle postgres-cluster: informers not synced\n");

        readinessProblems.set(List.of());
        HttpResponse<String> ready = get("/readyz");
        assertThat(ready.statusCode()).isEqualTo(200);
        assertThat(ready.body()).isEqualTo("ok\n");
    }

    @Test
    void aCheckThatThrowsFailsItsProbe() throws Exception {
        endpoints.close();
        endpoints = OperatorEndpoints.start(new InetSocketAddress("127.0.0.1", 0),
                metrics::scrape, List::of, () -> { throw new IllegalStateException("no bundle loaded"); });

        HttpResponse<String> response = get("/readyz");

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.body()).contains("no bundle loaded");
    }

    @Test
    void otherPathsAreNotFound() throws Exception {
        assertThat(get("/").statusCode()).isEqualTo(404);
        assertThat(get("/metrics/extra").statusCode()).isEqualTo(404);
        assertThat(get("/health").statusCode()).isEqualTo(404);
    }

    @Test
    void onlyGetIsAllowed() throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/metrics"))
                .POST(HttpRequest.BodyPublishers.ofString("x")));

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).hasValue("GET");
        assertThat(send(HttpRequest.newBuilder(uri("/readyz")).DELETE()).statusCode()).isEqualTo(405);
    }

    @Test
    void closeStopsServingAndReleasesThePort() throws Exception {
        assertThat(get("/healthz").statusCode()).isEqualTo(200);
        int port = endpoints.port();

        endpoints.close();

        // A new client: the first one may hold a kept-alive connection that the server has just dropped.
        HttpClient fresh = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        assertThatThrownBy(() -> fresh.send(HttpRequest.newBuilder(uri("/healthz")).timeout(TIMEOUT).build(),
                HttpResponse.BodyHandlers.ofString())).isInstanceOf(IOException.class);
        // A restarted operator must be able to bind the same port at once.
        try (ServerSocket again = new ServerSocket(port, 0, InetAddress.getByName("127.0.0.1"))) {
            assertThat(again.getLocalPort()).isEqualTo(port);
        }
    }

    private HttpResponse<String> get(String path) throws Exception {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return client.send(request.timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + endpoints.port() + path);
    }
}
