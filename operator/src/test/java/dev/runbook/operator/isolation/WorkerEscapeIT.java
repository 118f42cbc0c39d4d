package dev.runbook.operator.isolation;

import dev.runbook.engine.containment.ContainmentLimits;
import dev.runbook.engine.containment.FirstLine;
import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.testkit.ProjectFiles;
import dev.runbook.operator.metrics.OperatorMetrics;
import dev.runbook.operator.reload.AcceptedBundles;
import dev.runbook.operator.runtime.OperatorRuntime;
import dev.runbook.operator.testkit.Cycles;
import dev.runbook.operator.testkit.GreeterBundles;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.ShippedBundles;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import dev.runbook.operator.testkit.NeedsSandbox;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static dev.runbook.operator.testkit.Objects.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The proof through a running operator's reload path, with the first-line checks off (a test build's
 * switch): bundle ConfigMaps whose rules sleep for ever, exit, or allocate without bound are refused
 * while the operator stays alive, ready and truthful, and nothing of theirs is kept; the ConfigMap after
 * them is still processed: a probe whose rules try to read the operator's credentials and kubeconfig,
 * write and run files, and reach the API server. It passes vetting (it is contained, not refused) and
 * runs on a real resource, and what it reports in that resource's status is that it reached nothing.
 */
@RunbookIT(crds = "src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml")
@NeedsSandbox
class WorkerEscapeIT {
    static final Path ESCAPE = ProjectFiles.of("operator/src/test/resources/bundles/escape");
    static final String SECRET = "SECRET-" + UUID.randomUUID();
    /** Short deadlines: a cycle is killed past 4 x 1 s + 10 s, a vetting past 2 x 10 s + 10 s. */
    static final ContainmentLimits LIMITS = new ContainmentLimits(Duration.ofSeconds(1), Duration.ofSeconds(5),
            Duration.ofSeconds(10), 64L << 20);

    static Path credentials;

    KubernetesClient client;
    @TestNamespace("system")
    String system;
    @TestNamespace("apps")
    String apps;
    final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeAll
    static void firstLineChecksOff() throws IOException {
        System.setProperty(FirstLine.PROPERTY, "off");
        credentials = Files.createDirectories(ProjectFiles.of("operator/target").resolve("escape-it-" + UUID.randomUUID()));
        Files.setPosixFilePermissions(credentials, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path token = Files.writeString(credentials.resolve("token"), SECRET);
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-r--r--"));
    }

    @AfterAll
    static void firstLineChecksOn() {
        System.clearProperty(FirstLine.PROPERTY);
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) closing.get(i).close();
    }

    @Test
    void hostileBundlesAreRefusedOrContainedAndTheOperatorStaysAliveAndTruthful() throws IOException {
        Policy policy = new Policy(Policy.DEFAULT.defaults(), Map.of(), Policy.SYSTEM_NAMESPACES, LIMITS, "a test policy")
                .reserving(system);
        OperatorRuntime runtime = runtime(policy);
        runtime.start();
        ShippedBundles shipped = new ShippedBundles(client, system);

        // One after the other, as an author with the right to ship bundles would.
        for (String hostile : List.of("sleep", "exit", "hog")) shipped.ship("escape-" + hostile, ESCAPE.resolve(hostile));
        shipped.ship("escape-probe", ESCAPE.resolve("probe"));
        GenericKubernetesResource shop = client.genericKubernetesResources(GreeterBundles.WEB_APPS).inNamespace(apps)
                .resource(probed(apps)).create();

        await().atMost(Duration.ofMinutes(6)).until(() -> at(appMap(shop.getMetadata().getName()), "status.report") != null);
        List<String> report = report(shop.getMetadata().getName());
        assertThat(String.join("\n", report)).doesNotContain(SECRET);
        assertThat(report).filteredOn(line -> line.startsWith("read ")).isNotEmpty()
                .allSatisfy(line -> assertThat(line).contains("NoSuchFileException"));
        assertThat(report).filteredOn(line -> line.startsWith("write ") || line.startsWith("exec ") || line.startsWith("connect "))
                .hasSize(3).allSatisfy(line -> assertThat(line).contains("failed: "));
        assertThat(credentials.resolve("written")).doesNotExist();
        assertThat(credentials.resolve("executed")).doesNotExist();
        assertThat(report).contains("environment: {MALLOC_ARENA_MAX=2, PWD=/tmp}");

        // The hostile bundles before it were refused, each saying why, and none of them was kept.
        assertThat(refusal(shipped, "escape-sleep")).contains("ran past its bound");
        assertThat(refusal(shipped, "escape-exit")).contains("it exited");
        assertThat(refusal(shipped, "escape-hog")).containsAnyOf("exceeded the memory a cycle may use", "was stopped");
        for (String hostile : List.of("sleep", "exit", "hog")) {
            assertThat(client.secrets().inNamespace(system).withName(AcceptedBundles.secretName("escape-" + hostile)).get()).isNull();
        }
        // The probe was contained, not refused: it runs, in a worker, as vetted.
        assertThat(runtime.operator().orElseThrow().active(source("escape-probe")).orElseThrow().bundle().isolated()).isTrue();
        assertThat(runtime.notAlive()).isEmpty();
        assertThat(runtime.notReady()).isEmpty();
    }

    /**
     * A copy accepted under weaker rules (here: an operator whose first-line checks were off) does not
     * run after a restart under the current ones: the restore vets it again, in a worker, the first line
     * refuses it at its file and line, and the ConfigMap, loaded as it is, is refused the same way.
     */
    @Test
    void aCopyAcceptedUnderWeakerRulesDoesNotRunAfterARestart() throws Exception {
        Policy policy = new Policy(Policy.DEFAULT.defaults(), Map.of(), Policy.SYSTEM_NAMESPACES, LIMITS, "a test policy")
                .reserving(system);
        ShippedBundles shipped = new ShippedBundles(client, system);
        OperatorRuntime weaker = runtime(policy);
        weaker.start();
        shipped.ship("escape-probe", ESCAPE.resolve("probe"));
        await().atMost(Duration.ofMinutes(4)).until(() -> client.secrets().inNamespace(system)
                .withName(AcceptedBundles.secretName("escape-probe")).get() != null);
        weaker.close();

        System.clearProperty(FirstLine.PROPERTY);
        try {
            OperatorRuntime current = runtime(policy);
            current.start();

            assertThat(current.operator().orElseThrow().active(source("escape-probe"))).isEmpty();
            assertThat(refusal(shipped, "escape-probe")).contains("rules/probe.drl:");
            assertThat(current.notAlive()).isEmpty();
        } finally {
            System.setProperty(FirstLine.PROPERTY, "off");
        }
    }

    private OperatorRuntime runtime(Policy policy) {
        OperatorRuntime runtime = new OperatorRuntime(client, new OperatorRuntime.Settings(List.of(), Set.of(apps), system, null,
                policy, null), Clock.systemUTC(), OperatorMetrics.create(), new Cycles());
        closing.add(runtime);
        return runtime;
    }

    private String refusal(ShippedBundles shipped, String configMap) {
        await().atMost(Duration.ofMinutes(3)).until(() -> !shipped.events(configMap, "BundleRefused").isEmpty());
        return String.join("\n", shipped.events(configMap, "BundleRefused").stream().map(Event::getMessage).toList());
    }

    /** A WebApp whose spec names what the probe should try: the operator's credentials, kubeconfig, files, API server. */
    private GenericKubernetesResource probed(String namespace) {
        List<String> read = new ArrayList<>(List.of(credentials.resolve("token").toString(),
                "/var/run/secrets/kubernetes.io/serviceaccount/token", System.getProperty("user.home") + "/.kube/config"));
        String kubeconfig = TestCluster.kubeconfig();
        if (kubeconfig != null && !kubeconfig.isBlank()) read.add(kubeconfig);
        URI server = URI.create(client.getMasterUrl().toString());
        int port = server.getPort() > 0 ? server.getPort() : 443;
        GenericKubernetesResource app = new GenericKubernetesResource();
        app.setApiVersion("test.runbook.dev/v1");
        app.setKind("WebApp");
        app.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("shop").withNamespace(namespace).build());
        app.setAdditionalProperty("spec", Map.of("read", read, "write", List.of(credentials.resolve("written").toString()),
                "exec", List.of(credentials.resolve("executed").toString()), "connect", List.of(server.getHost() + ":" + port)));
        return app;
    }

    @SuppressWarnings("unchecked")
    private List<String> report(String name) {
        return (List<String>) at(appMap(name), "status.report");
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> appMap(String name) {
        GenericKubernetesResource app = client.genericKubernetesResources(GreeterBundles.WEB_APPS).inNamespace(apps).withName(name).get();
        return app == null ? Map.of() : client.getKubernetesSerialization().convertValue(app, Map.class);
    }

    private String source(String configMap) {
        return dev.runbook.operator.reload.BundleReloader.source(system, configMap);
    }
}
