package dev.runbook.apiserver;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.internal.MockDispatcher;
import io.fabric8.mockwebserver.internal.SimpleRequest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;

/**
 * An API server inside this JVM: the fabric8 mock server in CRUD mode (it stores objects, serves
 * watches, keeps a {@code status} subresource for CRDs that declare one, refuses stale
 * resourceVersions) behind {@link ApplyShimDispatcher}, which adds server-side apply and an RFC 7386
 * merge patch. Plain HTTP on localhost, no authentication. No controllers, no kubelet, no garbage
 * collector, no admission: see the shim for what it does not model.
 */
public final class EmbeddedApiServer implements AutoCloseable {
    /** The mock logs every request at INFO through java.util.logging; kept here so that the level set sticks. */
    private static final java.util.logging.Logger REQUEST_LOG = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

    static {
        REQUEST_LOG.setLevel(java.util.logging.Level.WARNING);
    }

    private final KubernetesMockServer server;
    private final KubernetesClient client;
    private final Discovery discovery;

    private EmbeddedApiServer(KubernetesMockServer server, Discovery discovery) {
        this.server = server;
        this.client = server.createClient();
        this.discovery = discovery;
    }

    /** Starts a server on a free port of localhost. */
    public static EmbeddedApiServer start() {
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        Discovery discovery = new Discovery();
        KubernetesMockServer server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(),
                responses, new Mixed(responses, new ApplyShimDispatcher(), discovery), false);
        server.init();
        return new EmbeddedApiServer(server, discovery);
    }

    /** A kind kubectl may ask for here. */
    private record BuiltIn(String plural, String kind, boolean namespaced, List<String> shortNames, boolean status) {
        BuiltIn(String plural, String kind, boolean namespaced) {
            this(plural, kind, namespaced, List.of(), false);
        }
    }

    /** The built-in kinds, by group/version. */
    private static final Map<String, List<BuiltIn>> BUILT_IN = Map.of(
            "v1", List.of(new BuiltIn("pods", "Pod", true), new BuiltIn("services", "Service", true),
                    new BuiltIn("configmaps", "ConfigMap", true), new BuiltIn("events", "Event", true),
                    new BuiltIn("secrets", "Secret", true), new BuiltIn("namespaces", "Namespace", false)),
            "apps/v1", List.of(new BuiltIn("statefulsets", "StatefulSet", true)),
            "batch/v1", List.of(new BuiltIn("jobs", "Job", true)),
            "apiextensions.k8s.io/v1", List.of(new BuiltIn("customresourcedefinitions", "CustomResourceDefinition", false)));

    /**
     * Enough API discovery for kubectl (the mock serves only that of CRDs, at /apis/GROUP/VERSION):
     * /api, /api/v1, /apis, the built-in groups above and those of the CRDs installed through
     * {@link #installCrd}, whatever the query string.
     */
    private static final class Discovery {
        private final Map<String, List<BuiltIn>> kinds = new java.util.concurrent.ConcurrentHashMap<>(BUILT_IN);

        /** The answer to a GET of this path (without query), or null when it is not a discovery path of ours. */
        Object answer(String path) {
            if (path.equals("/api")) {
                return Map.of("kind", "APIVersions", "versions", List.of("v1"),
                        "serverAddressByClientCIDRs", List.of(Map.of("clientCIDR", "0.0.0.0/0", "serverAddress", "localhost")));
            }
            if (path.equals("/apis")) return groups();
            String groupVersion = path.equals("/api/v1") ? "v1" : path.startsWith("/apis/") ? path.substring("/apis/".length()) : null;
            List<BuiltIn> served = groupVersion == null ? null : kinds.get(groupVersion);
            if (served == null) return null;
            List<Map<String, Object>> resources = new ArrayList<>();
            for (BuiltIn kind : served) {
                resources.add(Map.of("name", kind.plural(), "singularName", kind.kind().toLowerCase(java.util.Locale.ROOT),
                        "kind", kind.kind(), "namespaced", kind.namespaced(), "shortNames", kind.shortNames(),
                        "verbs", List.of("create", "delete", "get", "list", "patch", "update", "watch")));
                if (kind.status()) {
                    resources.add(Map.of("name", kind.plural() + "/status", "singularName", "", "kind", kind.kind(),
                            "namespaced", kind.namespaced(), "verbs", List.of("get", "patch", "update")));
                }
            }
            return Map.of("kind", "APIResourceList", "apiVersion", "v1", "groupVersion", groupVersion, "resources", resources);
        }

        private Map<String, Object> groups() {
            Set<String> groupVersions = new java.util.TreeSet<>(kinds.keySet());
            groupVersions.remove("v1");
            List<Map<String, Object>> groups = new ArrayList<>();
            for (String gv : groupVersions) {
                Map<String, String> version = Map.of("groupVersion", gv, "version", gv.substring(gv.indexOf('/') + 1));
                groups.add(Map.of("name", gv.substring(0, gv.indexOf('/')), "versions", List.of(version), "preferredVersion", version));
            }
            return Map.of("kind", "APIGroupList", "apiVersion", "v1", "groups", groups);
        }
    }

    /**
     * Discovery first, then the mock's own answers ({@code /version}, and expectations a test sets), then the
     * CRUD store with the shim.
     */
    private static final class Mixed extends Dispatcher {
        private final Map<ServerRequest, Queue<ServerResponse>> responses;
        private final MockDispatcher expectations;
        private final ApplyShimDispatcher store;
        private final Discovery discovery;

        Mixed(Map<ServerRequest, Queue<ServerResponse>> responses, ApplyShimDispatcher store, Discovery discovery) {
            this.responses = responses;
            this.expectations = new MockDispatcher(responses);
            this.store = store;
            this.discovery = discovery;
        }

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            if ("GET".equals(request.getMethod())) {
                String path = request.getPath();
                Object answer = discovery.answer(path.contains("?") ? path.substring(0, path.indexOf('?')) : path);
                if (answer != null) {
                    return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json")
                            .setBody(Serialization.asJson(answer));
                }
            }
            Queue<ServerResponse> queue = responses.get(new SimpleRequest(HttpMethod.valueOf(request.getMethod()), request.getPath()));
            return queue != null && !queue.isEmpty() ? expectations.dispatch(request) : store.dispatch(request);
        }
    }

    /** A client of this server; closed with it. */
    public KubernetesClient client() { return client; }

    /** The mock server itself, for tests that set expectations (fault injection). */
    public KubernetesMockServer mockServer() { return server; }

    /** The server's URL, e.g. {@code http://localhost:40123}. */
    public String url() {
        String url = server.url("/");
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    /** Creates a namespace (the mock needs none to store objects in it, but kubectl lists them). */
    public void createNamespace(String name) {
        if (client.namespaces().withName(name).get() == null) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
        }
    }

    /** Installs (or updates) a CRD from a YAML file; the mock serves its kind at once. */
    public void installCrd(Path file) {
        CustomResourceDefinition crd = Crds.apply(client, file, "runbook-sandbox");
        var names = crd.getSpec().getNames();
        for (var version : crd.getSpec().getVersions()) {
            BuiltIn kind = new BuiltIn(names.getPlural(), names.getKind(), "Namespaced".equals(crd.getSpec().getScope()),
                    names.getShortNames() == null ? List.of() : List.copyOf(names.getShortNames()),
                    version.getSubresources() != null && version.getSubresources().getStatus() != null);
            discovery.kinds.merge(crd.getSpec().getGroup() + "/" + version.getName(), List.of(kind), (a, b) -> {
                List<BuiltIn> all = new ArrayList<>(a);
                all.removeIf(k -> k.plural().equals(kind.plural()));
                all.addAll(b);
                return List.copyOf(all);
            });
        }
    }

    /**
     * A kubeconfig for this server, written to a new temporary file (deleted when the JVM exits): one
     * cluster, one context, namespace {@code namespace}, no credentials.
     */
    public Path writeKubeconfig(String namespace) {
        String config = """
                apiVersion: v1
                kind: Config
                clusters:
                  - name: runbook-sandbox
                    cluster:
                      server: %s
                users:
                  - name: runbook-sandbox
                    user: {}
                contexts:
                  - name: runbook-sandbox
                    context:
                      cluster: runbook-sandbox
                      user: runbook-sandbox
                      namespace: %s
                current-context: runbook-sandbox
                """.formatted(url(), namespace);
        try {
            Path file = Files.createTempFile("runbook-sandbox-", ".kubeconfig");
            Files.writeString(file, config);
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a kubeconfig file", e);
        }
    }

    @Override
    public void close() {
        try {
            client.close();
        } finally {
            server.destroy();
        }
    }
}
