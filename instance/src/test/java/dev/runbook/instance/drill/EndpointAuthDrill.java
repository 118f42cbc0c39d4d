package dev.runbook.instance.drill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runbook.instance.loopback.LoopbackKubelet;
import dev.runbook.postgres.contract.PostgresContract;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;

/**
 * Who may call an instance manager's {@code /status} and {@code /backup}
 * (docs/instance-manager.md#who-may-call-the-endpoints), asked of a real instance with real
 * ServiceAccount tokens minted by the API server ({@code kubectl create token}): nobody without a
 * token, not the token every pod has (its audience is the API server), not another ServiceAccount's
 * token for the instances' audience, but the operator's. The backup Jobs' own calls are the backup
 * drills.
 */
final class EndpointAuthDrill {
    /** The operator's identity the bundle admits by default (bundle.yaml's operatorServiceAccount). */
    private static final String OPERATOR_NAMESPACE = "runbook-system";
    private static final String OPERATOR = "runbook-operator";

    private final String namespace;
    private final Kubectl kubectl;
    private final LoopbackKubelet kubelet;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    EndpointAuthDrill(String namespace, Kubectl kubectl, LoopbackKubelet kubelet) {
        this.namespace = namespace;
        this.kubectl = kubectl;
        this.kubelet = kubelet;
    }

    String check(String instance) throws IOException, InterruptedException {
        String status = "http://127.0.0.1:" + (kubelet.port(instance) + 1) + "/status";
        String backup = "http://127.0.0.1:" + (kubelet.port(instance) + 1) + "/backup";
        assertThat(get(status, null).statusCode()).as("GET /status without a token").isEqualTo(401);
        assertThat(post(backup, null).statusCode()).as("POST /backup without a token").isEqualTo(401);

        // What every pod of the namespace could present: a token for the API server's audience.
        kubectl.run("-n", namespace, "create", "serviceaccount", "bystander");
        String apiToken = kubectl.run("-n", namespace, "create", "token", "bystander").strip();
        HttpResponse<String> replayed = get(status, apiToken);
        assertThat(replayed.statusCode()).as("a token for the API server, replayed").isEqualTo(401);
        assertThat(replayed.body()).contains("audience");

        String strangerToken = kubectl.run("-n", namespace, "create", "token", "bystander", "--audience=" + PostgresContract.AUDIENCE).strip();
        HttpResponse<String> stranger = post(backup, strangerToken);
        assertThat(stranger.statusCode()).as("another ServiceAccount, with the right audience").isEqualTo(403);
        assertThat(stranger.body()).contains("system:serviceaccount:" + namespace + ":bystander");

        kubectl.apply("apiVersion: v1\nkind: Namespace\nmetadata: {name: " + OPERATOR_NAMESPACE + "}\n---\n"
                + "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: " + OPERATOR + ", namespace: " + OPERATOR_NAMESPACE + "}\n");
        String operatorToken = kubectl.run("-n", OPERATOR_NAMESPACE, "create", "token", OPERATOR, "--audience=" + PostgresContract.AUDIENCE).strip();
        HttpResponse<String> answered = get(status, operatorToken);
        assertThat(answered.statusCode()).as("the operator asks for the status: " + answered.body()).isEqualTo(200);
        assertThat(answered.body()).contains("\"step\"").contains("\"server\"");
        HttpResponse<String> badName = post(backup, operatorToken);
        assertThat(badName.statusCode()).as("the operator reaches /backup itself (a malformed request: no backup is taken)").isEqualTo(400);
        return String.format(Locale.ROOT, "%s: no token 401, a token for the API server 401, another ServiceAccount's 403, the operator's 200 (%s)",
                instance, answered.body().length() > 80 ? answered.body().substring(0, 80) + "..." : answered.body());
    }

    private HttpResponse<String> get(String url, String token) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A POST /backup whose body names no backup: past the caller check it is a 400, and nothing is taken. */
    private HttpResponse<String> post(String url, String token) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"name\": \"Not A Name\"}"));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
