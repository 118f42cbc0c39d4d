package dev.runbook.operator.admission;

import dev.runbook.operator.concurrent.DaemonThreads;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionResponseBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Function;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The validating admission webhook for bundle ConfigMaps: HTTPS (the JDK's server, as for /metrics),
 * {@code POST} {@value #PATH} with an {@code AdmissionReview} (admission.k8s.io/v1), answered with the
 * {@link BundleAdmission} verdict. A denial's message is the refusal's report, which starts with what
 * failed ({@code file:line:col}, or the failing scenarios and the first difference): {@code kubectl apply}
 * prints it. Every replica serves it, leader or not: the check reads nothing from the cluster.
 *
 * <p>The same server and certificate serve the mutating webhook that labels objects with their shard
 * at create when shards are on ({@link #serveShards}, {@value #SHARD_PATH}).
 */
public final class BundleWebhook implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BundleWebhook.class);
    /** The path the ValidatingWebhookConfiguration calls (deploy/50-webhook.yaml). */
    public static final String PATH = "/validate-bundle";
    /** The path the MutatingWebhookConfiguration of shards calls (deploy/chart/templates/55-shard-webhook.yaml). */
    public static final String SHARD_PATH = "/mutate-shard";
    /** The MutatingWebhookConfiguration whose caBundle the operator writes when shards are on. */
    public static final String SHARD_CONFIGURATION = "runbook-operator-shards";
    /** HTTP 422, the code the API server shows with a denial's message. */
    static final int DENIED = 422;

    private final HttpsServer server;
    private final ExecutorService executor;
    private final BundleAdmission admission;
    private final KubernetesSerialization json = new KubernetesSerialization();
    private final Map<String, Function<AdmissionReview, AdmissionReview>> routes = new ConcurrentHashMap<>();
    private volatile WebhookTls tls;
    private volatile ServingCertificate certificate;

    private BundleWebhook(HttpsServer server, ExecutorService executor, BundleAdmission admission) {
        this.server = server;
        this.executor = executor;
        this.admission = admission;
        routes.put(PATH, this::answer);
    }

    /** Where the webhook listens, what its certificate names, and which configuration and Secret are its. */
    public record Settings(InetSocketAddress address, java.util.List<String> names, String configuration, String secret,
                           java.time.Duration budget) {
        /** What deploy/50-webhook.yaml names; the budget stays under its timeoutSeconds (15). */
        public static final String CONFIGURATION = "runbook-operator-bundles";
        public static final String SECRET = "runbook-operator-webhook-tls";
        public static final String SERVICE = "runbook-operator-webhook";
        public static final java.time.Duration BUDGET = java.time.Duration.ofSeconds(10);
    }

    /**
     * The webhook of an operator in {@code namespace}: its certificate made or read ({@link WebhookTls}), its
     * server started, then its CA written into the webhook configuration, so the API server calls it.
     */
    public static BundleWebhook serve(io.fabric8.kubernetes.client.KubernetesClient client, String namespace, Settings settings,
                                      java.time.Clock clock) throws IOException {
        return serve(client, namespace, settings, clock, dev.runbook.engine.policy.Policy.DEFAULT);
    }

    /** As above, vetting under the administrator's policy, so the webhook refuses exactly what a reload would. */
    public static BundleWebhook serve(io.fabric8.kubernetes.client.KubernetesClient client, String namespace, Settings settings,
                                      java.time.Clock clock, dev.runbook.engine.policy.Policy policy) throws IOException {
        return serve(client, namespace, settings, clock, new dev.runbook.operator.reload.BundleVetting(policy));
    }

    /**
     * As above, asking {@code vetting} for verdicts: the operator's own, shared with its reloader
     * ({@link dev.runbook.operator.reload.SharedVerdicts}), so that one ship costs one vetting.
     */
    public static BundleWebhook serve(io.fabric8.kubernetes.client.KubernetesClient client, String namespace, Settings settings,
                                      java.time.Clock clock, dev.runbook.operator.reload.ContentVetting vetting) throws IOException {
        WebhookTls tls = new WebhookTls(client, namespace, settings.secret());
        ServingCertificate certificate = tls.ensure(settings.names(), clock.instant());
        BundleWebhook webhook = start(settings.address(), certificate, new BundleAdmission(settings.budget(), vetting));
        webhook.tls = tls;
        webhook.certificate = certificate;
        try {
            tls.trustIn(settings.configuration(), certificate);
        } catch (RuntimeException e) {
            LOG.warn("could not write the webhook's CA into {}: {} (may the operator patch it?)", settings.configuration(), e.toString());
        }
        return webhook;
    }

    /** Binds {@code address} (port 0 picks one, see {@link #port()}) and serves {@code certificate}. */
    public static BundleWebhook start(InetSocketAddress address, ServingCertificate certificate, BundleAdmission admission)
            throws IOException {
        HttpsServer server = HttpsServer.create(address, 0);
        server.setHttpsConfigurator(new HttpsConfigurator(certificate.sslContext()));
        ExecutorService executor = Executors.newFixedThreadPool(2, DaemonThreads.named("runbook-webhook"));
        BundleWebhook webhook = new BundleWebhook(server, executor, admission);
        server.createContext("/", webhook::handle);
        server.setExecutor(executor);
        server.start();
        return webhook;
    }

    /**
     * Also serves the shard webhook ({@value #SHARD_PATH}, {@link ShardAdmission}) on this server, with this
     * certificate, whose CA it writes into the MutatingWebhookConfiguration {@code configuration}
     * ({@value #SHARD_CONFIGURATION}). The runtime calls it when shards are on, after {@link #serve}.
     */
    public void serveShards(ShardAdmission shards, String configuration) {
        routes.put(SHARD_PATH, shards::answer);
        if (tls == null || certificate == null) return; // started with a certificate of the caller's (tests)
        try {
            tls.trustInMutating(configuration, certificate);
        } catch (RuntimeException e) {
            LOG.warn("could not write the webhook's CA into {}: {} (may the operator patch it?)", configuration, e.toString());
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Function<AdmissionReview, AdmissionReview> route = routes.get(exchange.getRequestURI().getPath());
            if (route == null) {
                send(exchange, 404, "text/plain; charset=utf-8", "not found: the webhook is at " + String.join(", ", new java.util.TreeSet<>(routes.keySet())) + "\n");
                return;
            }
            if (!"POST".equals(exchange.getRequestMethod())) {
                exchange.getResponseHeaders().set("Allow", "POST");
                send(exchange, 405, "text/plain; charset=utf-8", "method not allowed\n");
                return;
            }
            AdmissionReview review;
            try (InputStream body = exchange.getRequestBody()) {
                review = json.unmarshal(body, AdmissionReview.class);
            } catch (RuntimeException e) {
                send(exchange, 400, "text/plain; charset=utf-8", "not an AdmissionReview: " + e.getMessage() + "\n");
                return;
            }
            send(exchange, 200, "application/json", json.asJson(route.apply(review)));
        }
    }

    /** The review, answered. */
    AdmissionReview answer(AdmissionReview review) {
        var request = review.getRequest();
        var response = new AdmissionResponseBuilder().withUid(request.getUid());
        ConfigMap configMap = request.getObject() == null ? null : json.convertValue(request.getObject(), ConfigMap.class);
        if (configMap == null) {
            response.withAllowed(true);
        } else {
            String namespace = request.getNamespace();
            String name = configMap.getMetadata() != null && configMap.getMetadata().getName() != null
                    ? configMap.getMetadata().getName() : request.getName();
            Map<String, String> data = configMap.getData() == null ? Map.of() : configMap.getData();
            BundleAdmission.Verdict verdict = admission.review(namespace, name, data);
            response.withAllowed(verdict.allowed()).withWarnings(verdict.warnings());
            if (!verdict.allowed()) {
                response.withStatus(new StatusBuilder().withCode(DENIED).withReason("Invalid").withMessage(verdict.message()).build());
                LOG.info("{}/{}: denied: {}", namespace, name, verdict.message().lines().findFirst().orElse(""));
            }
        }
        return new AdmissionReviewBuilder().withApiVersion("admission.k8s.io/v1").withKind("AdmissionReview")
                .withResponse(response.build()).build();
    }

    private static void send(HttpExchange exchange, int status, String contentType, String text) throws IOException {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        admission.close();
    }
}
