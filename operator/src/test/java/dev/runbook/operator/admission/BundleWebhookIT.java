package dev.runbook.operator.admission;

import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.cycle.CycleListener;
import dev.runbook.operator.metrics.OperatorMetrics;
import dev.runbook.operator.reload.BundleConfigMaps;
import dev.runbook.operator.reload.BundleReloader;
import dev.runbook.operator.reload.BundleVetting;
import dev.runbook.operator.reload.ContentVetting;
import dev.runbook.operator.runtime.OperatorRuntime;
import dev.runbook.operator.testkit.GreeterBundles;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import dev.runbook.operator.testkit.NeedsSandbox;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * The webhook on a real API server, installed from deploy/50-webhook.yaml (the Service reference turned
 * into a loopback URL, the namespace selector into the test's namespace): creating a bundle ConfigMap
 * that does not compile fails, with what failed first; a good one is created; a ConfigMap without the
 * bundle label is never sent to the webhook. The operator made the certificate and wrote its CA into
 * the configuration itself.
 */
@RunbookIT(crds = "src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml")
@NeedsSandbox
class BundleWebhookIT {
    static TestCluster cluster;

    @TempDir
    Path work;

    KubernetesClient client;
    @TestNamespace("system")
    String system;
    @TestNamespace("apps")
    String apps;
    String configuration;
    BundleWebhook webhook;

    OperatorRuntime runtime;
    int port;

    @BeforeEach
    void installWebhook() throws Exception {
        cluster.requireRealApiServer("admission webhooks");
        configuration = "runbook-bundles-" + system;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        client.resource(fromDeploy(port)).create();
    }

    private void serve(ContentVetting vetting) throws Exception {
        webhook = BundleWebhook.serve(client, system, new BundleWebhook.Settings(new InetSocketAddress("127.0.0.1", port),
                List.of("127.0.0.1"), configuration, BundleWebhook.Settings.SECRET, BundleWebhook.Settings.BUDGET),
                Clock.systemUTC(), vetting);
        // The API server reads the configuration through a cache: wait until it calls the webhook.
        await().atMost(TestCluster.CONVERGE).until(() -> {
            try {
                create("probe", GreeterBundles.broken(work, "probe-" + System.nanoTime()), true);
                client.configMaps().inNamespace(system).withName("probe").delete();
                return false;
            } catch (KubernetesClientException denied) {
                return denied.getCode() == 422;
            }
        });
    }

    @AfterEach
    void removeWebhook() {
        if (runtime != null) runtime.close();
        if (client != null && configuration != null) {
            client.admissionRegistration().v1().validatingWebhookConfigurations().withName(configuration).delete();
        }
        if (webhook != null) webhook.close();
    }

    @Test
    void kubectlApplyOfABundleThatDoesNotCompileFailsSayingWhere() throws Exception {
        serve(new BundleVetting(Policy.DEFAULT));

        var denied = catchThrowableOfType(KubernetesClientException.class,
                () -> create("runbook-bundle-greeter", GreeterBundles.broken(work, "broken"), true));

        assertThat(denied.getCode()).isEqualTo(422);
        assertThat(denied.getStatus().getMessage())
                .contains("admission webhook \"bundles.runbook.dev\" denied the request: rules/greet.drl:8:")
                .contains("the bundle that runs now keeps running");
        assertThat(client.configMaps().inNamespace(system).withName("runbook-bundle-greeter").get()).isNull();

        create("runbook-bundle-greeter", GreeterBundles.greeter(work, "good", "bonjour"), true);
        assertThat(client.configMaps().inNamespace(system).withName("runbook-bundle-greeter").get()).isNotNull();
        // Not a bundle ConfigMap (no label): not the webhook's business, whatever it holds.
        create("notes", GreeterBundles.broken(work, "unlabelled"), false);
        assertThat(client.configMaps().inNamespace(system).withName("notes").get()).isNotNull();
        // The operator made the certificate, and the API server trusts it through the caBundle it wrote.
        assertThat(client.secrets().inNamespace(system).withName(BundleWebhook.Settings.SECRET).get().getType())
                .isEqualTo("kubernetes.io/tls");
        assertThat(client.admissionRegistration().v1().validatingWebhookConfigurations().withName(configuration).get()
                .getWebhooks().get(0).getClientConfig().getCaBundle()).isNotBlank();
    }

    /**
     * A bundle shipped to an operator whose webhook and reloader share their verdicts is vetted once: the
     * API server's review vets it, and the reload of the ConfigMap it let through takes that verdict.
     */
    @Test
    void aBundleShippedThroughTheWebhookIsVettedOnceByTheOperator() throws Exception {
        runtime = new OperatorRuntime(client, new OperatorRuntime.Settings(List.of(), Set.of(apps), system, null),
                Clock.systemUTC(), OperatorMetrics.create(), CycleListener.NONE);
        serve(runtime.verdicts());
        // Started once the probes are gone, so that it reloads none of them.
        runtime.start();
        int probes = runtime.verdicts().computed();

        Path good = GreeterBundles.greeter(work, "good", "bonjour");
        create("runbook-bundle-greeter", good, true);

        String source = BundleReloader.source(system, "runbook-bundle-greeter");
        await().atMost(TestCluster.CONVERGE).until(() -> runtime.operator().orElseThrow().active(source).isPresent());
        // What runs is the very bundle the review compiled, and asking again vets nothing.
        assertThat(runtime.operator().orElseThrow().active(source).orElseThrow().bundle())
                .isSameAs(runtime.verdicts().vetData(source, BundleConfigMaps.pack(good)).bundle());
        assertThat(runtime.verdicts().computed() - probes).isEqualTo(1);
    }

    private void create(String name, Path bundle, boolean labelled) {
        var metadata = new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace(system);
        if (labelled) metadata.addToLabels(BundleConfigMaps.LABEL, "greeter");
        client.configMaps().inNamespace(system).resource(metadata.endMetadata().withData(BundleConfigMaps.pack(bundle)).build()).create();
    }

    /** deploy/50-webhook.yaml's configuration, named for this test, for its namespace, calling the loopback port. */
    private ValidatingWebhookConfiguration fromDeploy(int port) throws Exception {
        Path deploy = Path.of("").toAbsolutePath();
        while (!Files.isDirectory(deploy.resolve("deploy"))) deploy = deploy.getParent();
        List<HasMetadata> objects;
        try (InputStream in = Files.newInputStream(deploy.resolve("deploy/50-webhook.yaml"))) {
            objects = client.load(in).items();
        }
        ValidatingWebhookConfiguration shipped = objects.stream().filter(ValidatingWebhookConfiguration.class::isInstance)
                .map(ValidatingWebhookConfiguration.class::cast).findFirst().orElseThrow();
        shipped.getMetadata().setName(configuration);
        shipped.getWebhooks().forEach(w -> {
            w.getNamespaceSelector().setMatchLabels(Map.of("kubernetes.io/metadata.name", system));
            w.getClientConfig().setService(null);
            w.getClientConfig().setUrl("https://127.0.0.1:" + port + BundleWebhook.PATH);
            w.getClientConfig().setCaBundle(null);
        });
        return shipped;
    }
}
