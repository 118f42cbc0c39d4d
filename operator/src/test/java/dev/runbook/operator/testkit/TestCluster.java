package dev.runbook.operator.testkit;

import dev.runbook.apiserver.EmbeddedApiServer;
import dev.runbook.operator.leader.LeaderElection;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import static org.awaitility.Awaitility.await;

/**
 * The API server an integration test runs against: by default the fabric8 mock server in CRUD mode
 * behind the apply shim ({@link EmbeddedApiServer}), started in this JVM; with the system property
 * {@value #KUBECONFIG_PROPERTY} (or the environment variable {@value #KUBECONFIG_VARIABLE}) naming a
 * kubeconfig file, the cluster that file points to: testenv/up's control plane, or any cluster. Tests
 * then work in namespaces of their own, deleted at the end, and install the CRDs they need.
 *
 * <p>A test class does not start one itself: {@link RunbookIT} starts one per class and closes it.
 */
public final class TestCluster implements AutoCloseable {
    public static final String KUBECONFIG_PROPERTY = "runbook.it.kubeconfig";
    public static final String KUBECONFIG_VARIABLE = "RUNBOOK_IT_KUBECONFIG";
    /**
     * How long a test waits for the cluster to converge before it fails. Convergence takes seconds; the
     * margin is for a loaded 2-core CI machine, where API requests and cycles run many times slower, and
     * costs nothing when the test passes.
     */
    public static final Duration CONVERGE = Duration.ofSeconds(60);
    /**
     * Leader election for tests: shorter than Kubernetes' 15 s, 10 s and 2 s, so that a takeover after an
     * expiry is quick, but a leader may go 6 s without a renewal (each try timed out after 3 s, see
     * {@link LeaderElection#leaseClient}) before it stands down. With a 2 s deadline and 1 s tries, two slow
     * answers of a loaded API server in a row made the leader stand down and the standby take over in the
     * middle of a test that expects neither.
     */
    public static final LeaderElection.Timing LEADER_ELECTION = new LeaderElection.Timing(
            Duration.ofSeconds(10), Duration.ofSeconds(6), Duration.ofMillis(500));

    private final EmbeddedApiServer server;
    private final KubernetesClient client;
    private final List<String> namespaces = new ArrayList<>();

    private TestCluster(EmbeddedApiServer server, KubernetesClient client) {
        this.server = server;
        this.client = server != null ? server.client() : client;
    }

    static TestCluster start() {
        String kubeconfig = kubeconfig();
        if (!kubeconfig.isBlank()) {
            try {
                Config config = Config.fromKubeconfig(Files.readString(Path.of(kubeconfig)));
                // the operator's own client's serialization (Kubeconfig.client): watch events read generically
                return new TestCluster(null, new KubernetesClientBuilder().withConfig(config)
                        .withKubernetesSerialization(new dev.runbook.operator.kube.GenericWatchEvents()).build());
            } catch (IOException e) {
                throw new UncheckedIOException(KUBECONFIG_PROPERTY + "=" + kubeconfig + ": cannot be read", e);
            }
        }
        return new TestCluster(EmbeddedApiServer.start(), null);
    }

    /** The kubeconfig the tests are asked to use, or "" for the embedded server. */
    public static String kubeconfig() {
        String property = System.getProperty(KUBECONFIG_PROPERTY, "");
        if (!property.isBlank()) return property;
        String variable = System.getenv(KUBECONFIG_VARIABLE);
        return variable == null ? "" : variable;
    }

    public KubernetesClient client() { return client; }

    public boolean isMock() { return server != null; }

    /**
     * Skips the calling test, with the reason, on the embedded server: for a test of what only a real
     * API server does (garbage collection, server-side apply, schema validation, controllers). It is
     * then reported as skipped, never as passed.
     */
    public void requireRealApiServer(String what) {
        Assumptions.assumeFalse(isMock(), "needs a real API server (" + what + "): run with -D" + KUBECONFIG_PROPERTY
                + "=FILE or " + KUBECONFIG_VARIABLE + "=FILE, e.g. testenv/up's kubeconfig");
    }

    /**
     * Whether the cluster runs the controllers that make pods of a StatefulSet and run them (the
     * controller manager, a scheduler, and a kubelet or kwok): it has a Ready node. The embedded server
     * has none; tests then run the engine's simulated controllers.
     */
    public boolean runsPods() {
        if (isMock()) return false;
        return client.nodes().list().getItems().stream().anyMatch(node -> node.getStatus() != null
                && node.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())));
    }

    /**
     * The mock only: the next {@code times} requests with this method and path (query string included)
     * are answered with this HTTP status instead of reaching the store. For fault injection.
     */
    public void failNext(String method, String path, int code, int times) {
        if (server == null) throw new IllegalStateException("fault injection needs the mock API server");
        var status = new io.fabric8.kubernetes.api.model.StatusBuilder().withCode(code).withMessage("injected by the test")
                .withReason("Conflict").build();
        var expectation = switch (method) {
            case "PATCH" -> server.mockServer().expect().patch();
            case "PUT" -> server.mockServer().expect().put();
            case "POST" -> server.mockServer().expect().post();
            default -> throw new IllegalArgumentException(method);
        };
        expectation.withPath(path).andReturn(code, status).times(times);
    }

    /** A new namespace for one test, deleted when the cluster closes. */
    public String newNamespace(String prefix) {
        String name = prefix + "-" + UUID.randomUUID().toString().substring(0, 8).toLowerCase(Locale.ROOT);
        // createOr: the name is new, so "already exists" is this create, sent again by the client after an
        // answer that came too late on a busy machine.
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
                .createOr(existing -> existing.update());
        namespaces.add(name);
        return name;
    }

    /** Installs (or updates) a CRD from a YAML file and waits until its kind is served. */
    public void installCrd(Path file) {
        CustomResourceDefinition crd = dev.runbook.apiserver.Crds.apply(client, file, "runbook-tests");
        if (!isMock()) {
            await().atMost(CONVERGE).until(() -> {
                var status = client.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName()).get().getStatus();
                // A CRD just created may have a status without conditions yet.
                return status != null && status.getConditions() != null && status.getConditions().stream()
                        .anyMatch(c -> c.getType().equals("Established") && c.getStatus().equals("True"));
            });
        }
    }

    @Override
    public void close() {
        try {
            if (!isMock()) {
                for (String namespace : namespaces) client.namespaces().withName(namespace).delete();
            }
        } finally {
            if (server != null) server.close(); else client.close();
        }
    }
}
