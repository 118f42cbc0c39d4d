package dev.runbook.instance.auth;

import dev.runbook.postgres.contract.PostgresContract;
import static org.assertj.core.api.Assertions.assertThat;

import dev.runbook.instance.probe.ProbeServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** An endpoint behind the check on a real HTTP server: who gets through, and what the others are told. */
class CallerCheckTest {
    private static final String OPERATOR = "system:serviceaccount:runbook-system:runbook-operator";
    private static final String BACKUP_JOB = "system:serviceaccount:demo:pg-instance";
    private static final Instant NOW = Instant.now();

    private final TestTokens cluster = new TestTokens(NOW);
    private final AtomicInteger reached = new AtomicInteger();
    private final HttpClient http = HttpClient.newHttpClient();
    private ProbeServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private HttpResponse<String> get(String token) throws Exception {
        server = server != null ? server : start();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/status"));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private ProbeServer start() throws Exception {
        ProbeServer probes = new ProbeServer(0, Clock.systemUTC(), Duration.ofMinutes(1), Duration.ofMinutes(1));
        ServiceAccountTokens tokens = new ServiceAccountTokens(cluster, PostgresContract.AUDIENCE, Clock.fixed(NOW, ZoneOffset.UTC));
        probes.route("/status", new CallerCheck(tokens, Callers.parse(OPERATOR + ", " + BACKUP_JOB), exchange -> {
            reached.incrementAndGet();
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        }));
        return probes;
    }

    @Test
    void theOperatorAndTheBackupJobsGetThrough() throws Exception {
        assertThat(get(cluster.token(OPERATOR, PostgresContract.AUDIENCE)).statusCode()).isEqualTo(200);
        assertThat(get(cluster.token(BACKUP_JOB, PostgresContract.AUDIENCE)).statusCode()).isEqualTo(200);
        assertThat(reached).hasValue(2);
    }

    @Test
    void withoutATokenOrWithOneNotForThisAudienceItIs401AndTheEndpointIsNotReached() throws Exception {
        HttpResponse<String> none = get(null);
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        HttpResponse<String> apiToken = get(cluster.token(OPERATOR, "https://kubernetes.default.svc"));
        assertThat(apiToken.statusCode()).isEqualTo(401);
        assertThat(apiToken.body()).contains("not for the audience " + PostgresContract.AUDIENCE);
        assertThat(reached).hasValue(0);
    }

    @Test
    void anotherServiceAccountIs403AndToldWhoMay() throws Exception {
        HttpResponse<String> other = get(cluster.token("system:serviceaccount:demo:bystander", PostgresContract.AUDIENCE));
        assertThat(other.statusCode()).isEqualTo(403);
        assertThat(other.body()).contains("system:serviceaccount:demo:bystander may not call this endpoint");
        assertThat(reached).hasValue(0);
    }

    @Test
    void nobodyIsAdmittedWhenNoCallerIsNamed() throws Exception {
        assertThat(Callers.parse("").admits(OPERATOR)).isFalse();
        assertThat(Callers.parse(null).admits(OPERATOR)).isFalse();
    }
}
