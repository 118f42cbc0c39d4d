package dev.runbook.cli.why;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;

/**
 * A primary's last decisions as the operator that made them keeps them ({@code /decisions/NAMESPACE/NAME}
 * on its HTTP port): read from a URL given outright ({@code --operator-url}, e.g. through
 * {@code kubectl port-forward}), or through the API server's proxy to the operator's pod, the one that
 * holds the leader Lease (only the leader decides) unless a pod is named. The proxy needs {@code get} on
 * {@code pods/proxy} in the operator's namespace: the same right that reaches {@code /metrics} that way
 * (docs/why.md#who-may-read-the-decisions).
 */
public final class OperatorDecisions {
    /** How a replica names itself in the Lease: its pod's name, a dash and 8 hex digits (RunCommand's identity). */
    private static final Pattern IDENTITY_SUFFIX = Pattern.compile("-[0-9a-f]{8}$");
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    private OperatorDecisions() {}

    /** The decisions from an operator's own HTTP port, e.g. {@code http://127.0.0.1:8080}. */
    public static List<Map<String, Object>> fromUrl(String baseUrl, String namespace, String name) {
        String url = baseUrl.replaceAll("/+$", "") + path(namespace, name);
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT).GET().build();
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(Problem.inFile("--operator-url", "'" + baseUrl + "' is not a URL: " + e.getMessage()));
        }
        try {
            HttpResponse<String> response = HttpClient.newBuilder().connectTimeout(TIMEOUT).build()
                    .send(request, HttpResponse.BodyHandlers.ofString());
            return answer(url, response.statusCode(), response.body());
        } catch (IOException e) {
            throw new IllegalStateException(url + " does not answer: " + dev.runbook.operator.error.RootCause.message(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(url + ": interrupted", e);
        }
    }

    /**
     * The decisions through the API server's proxy to the operator's pod.
     *
     * @param pod the pod, or null for the one that holds {@code lease} in {@code operatorNamespace}
     */
    public static List<Map<String, Object>> throughTheApiServer(KubernetesClient client, String operatorNamespace, String pod,
                                                                String lease, int port, String namespace, String name) {
        String target = pod != null ? pod : leader(client, operatorNamespace, lease);
        String url = client.getMasterUrl().toString().replaceAll("/+$", "") + "/api/v1/namespaces/" + operatorNamespace
                + "/pods/" + target + ":" + port + "/proxy" + path(namespace, name);
        var http = client.getHttpClient();
        try {
            var response = http.sendAsync(http.newHttpRequestBuilder().uri(url).build(), String.class).get();
            return answer("pod " + operatorNamespace + "/" + target + " (through the API server)", response.code(), response.body());
        } catch (ExecutionException e) {
            throw new IllegalStateException(url + ": " + dev.runbook.operator.error.RootCause.message(e), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(url + ": interrupted", e);
        }
    }

    /** The pod that holds the Lease: only the leader decides, so only it has decisions to tell. */
    static String leader(KubernetesClient client, String operatorNamespace, String lease) {
        Lease held = client.leases().inNamespace(operatorNamespace).withName(lease).get();
        String holder = held == null || held.getSpec() == null ? null : held.getSpec().getHolderIdentity();
        if (holder == null || holder.isBlank()) {
            throw new InvalidInputException(Problem.inFile("--operator-pod", "no replica holds Lease " + operatorNamespace + "/"
                    + lease + " (an operator run without --leader-election, or none runs): name its pod with --operator-pod, "
                    + "or give --operator-url"));
        }
        return podOf(holder);
    }

    /** The pod's name in a holder identity ({@code runbook-operator-5d9c-x7k2-1a2b3c4d} is pod {@code runbook-operator-5d9c-x7k2}). */
    static String podOf(String holderIdentity) {
        return IDENTITY_SUFFIX.matcher(holderIdentity).replaceFirst("");
    }

    private static String path(String namespace, String name) {
        return "/decisions/" + URLEncoder.encode(namespace, StandardCharsets.UTF_8) + "/" + URLEncoder.encode(name, StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> answer(String from, int status, String body) {
        if (status == 404) throw new NoDecisions(from + ": " + (body == null ? "" : body.strip()));
        if (status != 200) throw new IllegalStateException(from + " answered " + status + ": " + (body == null ? "" : body.strip()));
        try {
            Map<String, Object> answer = JSON.readValue(body, Map.class);
            return (List<Map<String, Object>>) answer.get("decisions");
        } catch (IOException | ClassCastException e) {
            throw new IllegalStateException(from + " answered with something other than decisions: " + e.getMessage(), e);
        }
    }

    /** The operator keeps no decision of the primary (it has not decided for it, or it does not lead). */
    public static final class NoDecisions extends RuntimeException {
        NoDecisions(String message) { super(message); }
    }
}
