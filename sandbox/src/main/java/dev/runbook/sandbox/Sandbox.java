package dev.runbook.sandbox;

import dev.runbook.postgres.contract.PostgresContract;
import dev.runbook.operator.concurrent.DaemonThreads;
import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.testkit.simulation.SimulatedControllers;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.apiserver.EmbeddedApiServer;
import dev.runbook.sandbox.KubeCluster;
import dev.runbook.rules.fact.ObjectPath;
import dev.runbook.rules.fact.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;

/**
 * A bundle at work, with no cluster: an {@link EmbeddedApiServer}, the bundle's CRDs, the engine's
 * {@link SimulatedControllers} (the StatefulSet and Deployment controllers, a kubelet, the Job
 * controller and the garbage collector) acting on it through a {@link KubeCluster}, and the operator
 * reconciling the bundle's sample, all in this JVM and on one {@link SandboxClock}, printing a
 * {@link Timeline}. A drill plays on it: {@link FailoverDrill} for postgres-cluster, a
 * {@link DrillRunner} playing a bundle's {@code sandbox.yaml} for the others.
 */
public final class Sandbox implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Sandbox.class);
    /** How often the simulated controllers look at the cluster. */
    static final Duration CONTROLLER_TICK = Duration.ofMillis(200);

    /**
     * @param readyAfter    how long after its creation the simulated kubelet makes a pod ready
     * @param timeout       how long each stage may take to converge
     * @param failoverDelay the sample's spec.failoverDelay in postgres-cluster's failover drill
     */
    public record Options(Duration readyAfter, Duration timeout, Duration failoverDelay) {}

    /** The cluster did not reach a state within the timeout. */
    public static final class NotConvergedException extends RuntimeException {
        public NotConvergedException(String message) { super(message); }
    }

    private final CompiledBundle bundle;
    private final Path bundleDir;
    private final Path sampleFile;
    private final Options options;
    private final SandboxClock clock = new SandboxClock();
    private final Instant wallStart = Instant.now();
    private EmbeddedApiServer server;
    private KubernetesClient client;
    private KubeApi api;
    private Timeline timeline;
    private ScheduledExecutorService controllers;
    private SimulatedControllers simulated;
    private RunbookOperator operator;
    private ObjectRef cluster;
    /** The kinds the simulated controllers see. */
    private Set<Kind> kinds = Set.of();

    /** @param sampleFile the custom resource the drill applies */
    public Sandbox(CompiledBundle bundle, Path bundleDir, Path sampleFile, Options options) {
        this.bundle = bundle;
        this.bundleDir = bundleDir;
        this.sampleFile = sampleFile;
        this.options = options;
    }

    /** Starts the API server, installs the bundle's CRDs, starts the simulated controllers and the operator. */
    public void start(PrintWriter out) {
        Map<String, Object> sample = sample();
        String namespace = ObjectPath.read(sample, "metadata.namespace") instanceof String ns ? ns : "default";
        String name = String.valueOf(ObjectPath.read(sample, "metadata.name"));
        cluster = ObjectRef.of(bundle.spec().primary().kind().apiVersion(), bundle.spec().primary().kind().kind(), namespace, name);

        server = EmbeddedApiServer.start();
        client = server.client();
        try (Stream<Path> crds = Files.list(bundleDir.resolve("crds"))) {
            crds.filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml")).sorted().forEach(server::installCrd);
        } catch (IOException e) {
            throw new UncheckedIOException(bundleDir.resolve("crds") + ": cannot be read", e);
        }
        server.createNamespace(namespace);
        api = new KubeApi(client);
        api.register(bundle.spec().primary());
        out.println("runbook sandbox: API server at " + server.url() + " (the fabric8 mock in this JVM, see docs/sandbox.md)");
        out.println("runbook sandbox: bundle " + bundle + " from " + display(bundleDir) + "; simulated StatefulSet and Deployment controllers, "
                + "kubelet (pods ready " + seconds(options.readyAfter()) + " after creation), Job controller and garbage collector");
        out.flush();

        timeline = new Timeline(out, clock, this::read);
        kinds = new LinkedHashSet<>(List.of(bundle.spec().primary().kind(),
                new Kind("v1", "Pod"), new Kind("apps/v1", "StatefulSet"), new Kind("apps/v1", "Deployment"),
                new Kind("batch/v1", "Job"), new Kind("v1", "Service"), new Kind("v1", "ConfigMap")));
        KubeCluster view = new KubeCluster(api, namespace, List.copyOf(kinds), clock);
        simulated = new SimulatedControllers(view, options.readyAfter());
        controllers = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("sandbox-controllers"));
        controllers.scheduleWithFixedDelay(() -> {
            try {
                simulated.settle(clock.instant());
            } catch (RuntimeException e) {
                // A write that raced the operator (409) is simply tried again at the next tick.
                LOG.debug("simulated controllers: {}", e.getMessage());
            }
        }, 0, CONTROLLER_TICK.toMillis(), TimeUnit.MILLISECONDS);
        operator = RunbookOperator.builder(client).bundles(List.of(bundle)).namespaces(Set.of(namespace)).clock(clock)
                .listener(timeline).build();
        operator.start();
    }

    /** Creates the sample as it is (a drill may have changed it first). */
    void apply(Map<String, Object> object) {
        client.genericKubernetesResources(cluster.getApiVersion(), cluster.getKind()).inNamespace(cluster.getNamespace())
                .resource(client.getKubernetesSerialization().convertValue(object, GenericKubernetesResource.class)).create();
    }

    CompiledBundle bundle() { return bundle; }
    Path sampleFile() { return sampleFile; }
    Options options() { return options; }
    SandboxClock clock() { return clock; }
    Timeline timeline() { return timeline; }
    SimulatedControllers simulated() { return simulated; }
    KubernetesClient client() { return client; }
    KubeApi api() { return api; }
    /** The sample as the API server names it. */
    ObjectRef primary() { return cluster; }

    void summary(PrintWriter out, String what) {
        out.println("runbook sandbox: OK. " + cluster.getKind() + " " + cluster.getNamespace() + "/" + cluster.getName() + " "
                + what + "; " + timeline.cycles() + " cycles, " + timeline.changingCycles() + " of them changed something; "
                + seconds(Duration.between(wallStart, Instant.now())) + " of real time in all");
        out.flush();
    }

    /** The server's URL, once started. */
    public String url() { return server.url(); }

    /** Writes a kubeconfig for the server to a temporary file. */
    public Path writeKubeconfig() { return server.writeKubeconfig(cluster.getNamespace()); }

    /** What to list with kubectl get: the primary's plural, then each secondary kind's and the pods. */
    public String kindsToGet() {
        Set<String> kinds = new LinkedHashSet<>();
        kinds.add(bundle.spec().primary().plural());
        bundle.spec().secondaries().forEach(s -> kinds.add(s.kind().kind().toLowerCase(java.util.Locale.ROOT) + "s"));
        kinds.add("pods");
        return String.join(",", kinds);
    }

    /** {@code Kind/name} in the sample's namespace, of one of the kinds the sandbox knows. */
    ObjectRef ref(String kindAndName) {
        String kind = kindAndName.substring(0, kindAndName.indexOf('/'));
        Kind known = kinds.stream().filter(k -> k.kind().equals(kind)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                kindAndName + ": the sandbox knows the kinds " + kinds.stream().map(Kind::kind).toList() + ", not " + kind));
        return ObjectRef.of(known.apiVersion(), kind, cluster.getNamespace(), kindAndName.substring(kindAndName.indexOf('/') + 1));
    }

    /** The primary's namespace. */
    public String namespace() { return cluster.getNamespace(); }

    static Object phase(Timeline.Seen seen) {
        return ObjectPath.read(seen.primary(), "status.phase");
    }

    /** What a cycle left behind: the primary and the role label of each of its pods. */
    private Timeline.Seen read(ObjectRef primary) {
        Map<String, Object> object = api.get(primary).orElse(Map.of());
        Map<String, String> roles = new java.util.TreeMap<>();
        for (var pod : client.pods().inNamespace(primary.getNamespace()).withLabel(PostgresContract.CLUSTER_LABEL, primary.getName()).list().getItems()) {
            var labels = pod.getMetadata().getLabels();
            roles.put(pod.getMetadata().getName(), labels == null ? "" : labels.getOrDefault(PostgresContract.ROLE_LABEL, ""));
        }
        return new Timeline.Seen(object, roles, false); // settled: the Timeline sets it from the cycle's report
    }

    /** Waits until the timeline has printed a cycle that left the cluster as {@code done} wants it. */
    Timeline.Seen awaitCluster(String what, Predicate<Timeline.Seen> done) {
        try {
            return await().atMost(options.timeout()).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                    .until(timeline::seen, done);
        } catch (ConditionTimeoutException e) {
            throw new NotConvergedException("runbook sandbox: gave up after " + seconds(options.timeout()) + " waiting for "
                    + what + ". What the API server holds now:\n" + state());
        }
    }

    /** A world change that may race a writer (409): tried again until it goes through. */
    void worldChange(Runnable change) {
        try {
            await().atMost(options.timeout()).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                    .until(callable(change));
        } catch (ConditionTimeoutException e) {
            throw new NotConvergedException("runbook sandbox: a simulated change did not go through within "
                    + seconds(options.timeout()) + "\n" + state());
        }
    }

    private static Callable<Boolean> callable(Runnable change) {
        return () -> {
            change.run();
            return true;
        };
    }

    /** Waits, without the timeline, until {@code done} holds: for what no cycle reports, such as the primary gone. */
    void awaitWorld(String what, Callable<Boolean> done) {
        try {
            await().atMost(options.timeout()).pollInterval(Duration.ofMillis(50)).ignoreExceptions().until(done);
        } catch (ConditionTimeoutException e) {
            throw new NotConvergedException("runbook sandbox: gave up after " + seconds(options.timeout()) + " waiting for "
                    + what + ". What the API server holds now:\n" + state());
        }
    }

    /** What the cluster looks like, for a sandbox that did not converge: the primary's status and each pod. */
    String state() {
        StringBuilder state = new StringBuilder();
        Map<String, Object> pg = api.get(cluster).orElse(null);
        String id = "  " + cluster.getKind() + " " + cluster.getNamespace() + "/" + cluster.getName();
        if (pg == null) return state.append(id).append(": not there").toString();
        state.append(id).append(": phase=").append(ObjectPath.read(pg, "status.phase"));
        if (ObjectPath.read(pg, "spec.instances") != null) {
            state.append(", readyInstances=").append(ObjectPath.read(pg, "status.readyInstances"))
                    .append(" of ").append(ObjectPath.read(pg, "spec.instances"))
                    .append(", currentPrimary=").append(ObjectPath.read(pg, "status.currentPrimary"))
                    .append(", targetPrimary=").append(ObjectPath.read(pg, "status.targetPrimary"));
        } else if (ObjectPath.read(pg, "spec.replicas") != null) {
            state.append(", readyReplicas=").append(ObjectPath.read(pg, "status.readyReplicas"))
                    .append(" of ").append(ObjectPath.read(pg, "spec.replicas"));
        }
        if (ObjectPath.read(pg, "metadata.deletionTimestamp") != null) state.append(", being deleted");
        if (ObjectPath.read(pg, "status.conditions") instanceof List<?> conditions) {
            for (Object c : conditions) {
                if (c instanceof Map<?, ?> m && !"True".equals(m.get("status"))) {
                    state.append("\n  condition ").append(m.get("type")).append('=').append(m.get("status")).append(' ')
                            .append(m.get("reason")).append(": ").append(m.get("message"));
                }
            }
        }
        for (var job : client.batch().v1().jobs().inNamespace(cluster.getNamespace()).list().getItems()) {
            var status = job.getStatus();
            String outcome = status == null ? "running" : status.getSucceeded() != null && status.getSucceeded() > 0 ? "succeeded"
                    : status.getFailed() != null && status.getFailed() > 0 ? "failed" : "running";
            state.append("\n  Job ").append(job.getMetadata().getName()).append(": ").append(outcome);
        }
        for (var pod : client.pods().inNamespace(cluster.getNamespace()).list().getItems()) {
            boolean ready = pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions().stream()
                    .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
            var labels = pod.getMetadata().getLabels() == null ? Map.<String, String>of() : pod.getMetadata().getLabels();
            state.append("\n  Pod ").append(pod.getMetadata().getName()).append(": ").append(ready ? "ready" : "not ready")
                    .append(labels.containsKey(PostgresContract.ROLE_LABEL) ? ", role=" + labels.get(PostgresContract.ROLE_LABEL) : "");
        }
        return state.toString();
    }

    static List<String> withRole(Timeline.Seen seen, String role) {
        return seen.roles().entrySet().stream().filter(e -> role.equals(e.getValue())).map(Map.Entry::getKey).toList();
    }

    ObjectRef pod(String name) {
        return ObjectRef.of("v1", "Pod", cluster.getNamespace(), name);
    }

    /** What the instance manager in the pod does: a merge patch of one annotation. */
    void annotatePod(String name, String key, String value) {
        String patch = client.getKubernetesSerialization().asJson(Map.of("metadata", Map.of("annotations", Map.of(key, value))));
        worldChange(() -> client.pods().inNamespace(cluster.getNamespace()).withName(name)
                .patch(PatchContext.of(PatchType.JSON_MERGE), patch));
    }

    /** The sample the drill applies, as maps. */
    @SuppressWarnings("unchecked")
    Map<String, Object> sample() {
        Path file = sampleFile;
        try (InputStream in = Files.newInputStream(file)) {
            Object parsed = io.fabric8.kubernetes.client.utils.Serialization.unmarshal(in, Map.class);
            if (!(parsed instanceof Map<?, ?> map) || map.get("metadata") == null) {
                throw new IllegalArgumentException(file + ": not a Kubernetes object");
            }
            return new LinkedHashMap<>((Map<String, Object>) map);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot be read (the sandbox's drill applies it)", e);
        }
    }

    /** A path relative to the working directory when it is below it, else as it is. */
    static String display(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        Path here = Path.of("").toAbsolutePath();
        return absolute.startsWith(here) ? here.relativize(absolute).toString() : absolute.toString();
    }

    static String seconds(Duration duration) {
        long millis = duration.toMillis();
        if (millis % 1000 == 0) return millis / 1000 + "s";
        return String.format(java.util.Locale.ROOT, "%.1fs", millis / 1000.0);
    }

    @Override
    public void close() {
        if (timeline != null) timeline.stop();
        RuntimeException first = null;
        try {
            if (operator != null) operator.close();
        } catch (RuntimeException e) {
            first = e;
        }
        if (controllers != null) {
            controllers.shutdownNow();
            try {
                controllers.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (server != null) server.close();
        if (first != null) throw first;
    }
}
