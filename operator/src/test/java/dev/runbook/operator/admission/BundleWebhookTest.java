package dev.runbook.operator.admission;

import dev.runbook.operator.reload.BundleConfigMaps;
import dev.runbook.operator.testkit.GreeterBundles;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequestBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.ByteArrayInputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The webhook over HTTPS, as the API server calls it: an AdmissionReview for a bundle ConfigMap, posted
 * to a client that trusts only the operator's own CA, is answered allowed or denied with what failed.
 */
class BundleWebhookTest {
    final KubernetesSerialization json = new KubernetesSerialization();

    @TempDir
    Path work;

    ServingCertificate certificate;
    BundleWebhook webhook;

    @BeforeEach
    void start() throws Exception {
        certificate = ServingCertificate.generate(List.of("127.0.0.1", "localhost"), Instant.now());
        webhook = BundleWebhook.start(new InetSocketAddress("127.0.0.1", 0), certificate, new BundleAdmission(Duration.ofSeconds(60)));
    }

    @AfterEach
    void stop() {
        if (webhook != null) webhook.close();
    }

    @Test
    void aBundleThatDoesNotCompileIsDeniedWithFileLineColumnFirst() throws Exception {
        AdmissionReview answer = post(review("uid-1", GreeterBundles.broken(work, "broken")));

        assertThat(answer.getResponse().getUid()).isEqualTo("uid-1");
        assertThat(answer.getResponse().getAllowed()).isFalse();
        assertThat(answer.getResponse().getStatus().getCode()).isEqualTo(422);
        List<String> lines = answer.getResponse().getStatus().getMessage().lines().toList();
        assertThat(lines.get(0)).startsWith("rules/greet.drl:8:");
        assertThat(lines.get(1)).startsWith("the bundle that runs now keeps running");
    }

    @Test
    void aBundleWhoseScenarioFailsIsDeniedNamingTheScenario() throws Exception {
        Path untested = GreeterBundles.greeter(work, "untested", "hello");
        GreeterBundles.edit(untested.resolve("rules/greet.drl"), "\"greeting\", \"hello\"", "\"greeting\", \"salut\"");

        AdmissionReview answer = post(review("uid-2", untested));

        assertThat(answer.getResponse().getAllowed()).isFalse();
        assertThat(answer.getResponse().getStatus().getMessage().lines().findFirst().orElseThrow())
                .startsWith("scenario failed: tests/greet.yaml: every app is greeted: ");
    }

    /** kubectl prints a denial whole: ten failing scenarios are named in the first line, and the rest is cut short. */
    @Test
    void aDenialStaysShortWhateverFailed() throws Exception {
        Path bundle = work.resolve("many-failures");
        copy(dev.runbook.operator.testkit.ProjectFiles.of("engine/src/test/resources/bundles/example"), bundle);
        try (var failing = java.nio.file.Files.list(bundle.resolve("failing-tests"))) {
            for (Path file : failing.toList()) java.nio.file.Files.copy(file, bundle.resolve("tests").resolve(file.getFileName()));
        }

        String message = post(review("uid-5", bundle)).getResponse().getStatus().getMessage();

        List<String> lines = message.lines().toList();
        assertThat(lines.get(0)).startsWith("scenarios failed: tests/wrong.yaml: ").contains("(+7 more)");
        assertThat(lines.get(1)).isEqualTo("the bundle that runs now keeps running");
        assertThat(lines).hasSizeLessThanOrEqualTo(13);
        assertThat(lines.get(lines.size() - 1)).matches("\\.\\.\\. \\d+ more lines: `runbook lint DIR` and `runbook test DIR` show them all");
        assertThat(message.length()).isLessThan(3000);
    }

    private static void copy(Path from, Path to) throws java.io.IOException {
        try (var files = java.nio.file.Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (java.nio.file.Files.isDirectory(file)) java.nio.file.Files.createDirectories(target);
                else java.nio.file.Files.copy(file, target);
            }
        }
    }

    @Test
    void aGoodBundleIsAllowed() throws Exception {
        AdmissionReview answer = post(review("uid-3", GreeterBundles.greeter(work, "good", "bonjour")));

        assertThat(answer.getResponse().getAllowed()).isTrue();
        assertThat(answer.getResponse().getWarnings()).isNullOrEmpty();
    }

    @Test
    void aCheckThatOutlastsTheBudgetIsAllowedWithAWarning() throws Exception {
        webhook.close();
        webhook = BundleWebhook.start(new InetSocketAddress("127.0.0.1", 0), certificate, new BundleAdmission(Duration.ZERO));

        AdmissionReview answer = post(review("uid-4", GreeterBundles.broken(work, "slow")));

        assertThat(answer.getResponse().getAllowed()).isTrue();
        assertThat(answer.getResponse().getWarnings()).singleElement().asString()
                .contains("did not finish within 0s", "the operator finishes it before it runs the bundle");
    }

    private AdmissionReview review(String uid, Path bundle) {
        var configMap = new ConfigMapBuilder()
                .withNewMetadata().withName("runbook-bundle-greeter").withNamespace("runbook-system")
                    .addToLabels(BundleConfigMaps.LABEL, "greeter").endMetadata()
                .withData(BundleConfigMaps.pack(bundle)).build();
        return new AdmissionReviewBuilder().withApiVersion("admission.k8s.io/v1").withKind("AdmissionReview")
                .withRequest(new AdmissionRequestBuilder().withUid(uid).withNamespace("runbook-system")
                        .withName("runbook-bundle-greeter").withOperation("CREATE").withObject(configMap).build())
                .build();
    }

    private AdmissionReview post(AdmissionReview review) throws Exception {
        HttpClient client = HttpClient.newBuilder().sslContext(trustingOnlyTheCa()).build();
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                        URI.create("https://localhost:" + webhook.port() + BundleWebhook.PATH))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json.asJson(review))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json.unmarshal(response.body(), AdmissionReview.class);
    }

    private SSLContext trustingOnlyTheCa() throws Exception {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("ca", CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(certificate.caPem().getBytes(StandardCharsets.US_ASCII))));
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }
}
