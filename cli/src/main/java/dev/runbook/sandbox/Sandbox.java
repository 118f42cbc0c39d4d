package dev.runbook.sandbox;

import dev.runbook.operator.concurrent.DaemonThreads;
import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.simulation.SimulatedControllers;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.apiserver.EmbeddedApiServer;
import dev.runbook.operator.simulation.KubeCluster;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 * The postgres-cluster bundle at work, with no cluster: an {@link EmbeddedApiServer}, the bundle's
 * CRD, the engine's {@link SimulatedControllers} (the StatefulSet controller, a kubelet, the Job
 * controller and the garbage collector) acting on it through a {@link KubeCluster}, and the operator
 * reconciling the bundle's sample cluster, all in this JVM and on one {@link SandboxClock}. It
 * bootstraps the sample to Healthy, then runs a failover drill, printing a {@link Timeline}.
 */
public final class Sandbox implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Sandbox.class);
    /** How often the simulated controllers look at the cluster. */
    static final Duration CONTROLLER_TICK = Duration.ofMillis(200);
    static final String ROLE = "postgres.runbook.dev/role";
    static final String REPORTED_ROLE = "postgres.runbook.dev/reported-role";
    static final String LSN = "postgres.runbook.dev/replayed-lsn";
    static final String CLUSTER_LABEL = "postgres.runbook.dev/cluster";
    /** The WAL position the primary reports, 0/3000000: the replicas are a little behind it. */
    static final long PRIMARY_LSN = 50_331_648L;
    /** What the furthest replica has replayed. */
    static final long BEST_LSN = PRIMARY_LSN - 8;
    /** What the other replicas have replayed. */
    static final long BEHIND_LSN = PRIMARY_LSN - 48;

    /**
     * @param readyAfter    how long after its creation the simulated kubelet makes a pod ready
     * @param timeout       how long each stage may take to converge
     * @param failoverDelay the sample's spec.failoverDelay in the sandbox
     */
    public record Options(Duration readyAfter, Duration timeout, Duration failoverDelay) {}

    /** The cluster did not reach a state within the timeout. */
    public static final class NotConvergedException extends RuntimeException {
        public NotConvergedException(String message) { super(message); }
    }

    private final CompiledBundle bundle;
    private final Path bundleDir;
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

    public Sandbox(CompiledBundle bundle, Path bundleDir, Options options) {
        this.bundle = bundle;
        this.bundleDir = bundleDir;
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
        out.println("runbook sandbox: bundle " + bundle + " from " + display(bundleDir) + "; simulated StatefulSet controller, "
                + "kubelet (pods ready " + seconds(options.readyAfter()) + " after creation), Job controller and garbage collector");
        out.flush();

        timeline = new Timeline(out, clock, this::read);
        KubeCluster view = new KubeCluster(api, namespace, List.of(
                bundle.spec().primary().kind(),
                new Kind("v1", "Pod"), new Kind("apps/v1", "StatefulSet"), new Kind("batch/v1", "Job"),
                new Kind("v1", "Service"), new Kind("v1", "ConfigMap")), clock);
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
        operator = new RunbookOperator(client, List.of(bundle), Set.of(namespace), clock, timeline);
        operator.start();
    }

    /**
     * Applies the sample, waits for Healthy, then runs the failover drill: the primary stops being
     * ready, the clock passes the failover delay, the best replica is promoted, the old primary
     * returns as a replica, Healthy again. Prints the timeline and a closing summary line.
     *
     * @throws NotConvergedException when a stage does not converge within the timeout
     */
    public void run(PrintWriter out) {
        Map<String, Object> sample = sample();
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = new LinkedHashMap<>((Map<String, Object>) sample.getOrDefault("spec", Map.of()));
        boolean hadBackup = spec.remove("backup") != null;
        spec.put("failoverDelay", seconds(options.failoverDelay()));
        sample.put("spec", spec);
        timeline.note("apply " + display(bundleDir.resolve("samples/cluster.yaml")) + ": " + cluster.getKind() + " "
                + cluster.getNamespace() + "/" + cluster.getName() + ", with failoverDelay: " + seconds(options.failoverDelay())
                + (hadBackup ? " and without its backup schedule" : ""));
        client.genericKubernetesResources(cluster.getApiVersion(), cluster.getKind()).inNamespace(cluster.getNamespace())
                .resource(client.getKubernetesSerialization().convertValue(sample, GenericKubernetesResource.class)).create();

        Timeline.Seen healthy = awaitCluster("the cluster to bootstrap to Healthy", Sandbox::converged);
        Duration bootstrap = timeline.elapsed();
        String primary = String.valueOf(ObjectPath.read(healthy.primary(), "status.currentPrimary"));
        List<String> replicas = withRole(healthy, "replica");
        timeline.milestone("Healthy: " + primary + " is the primary, " + String.join(" and ", replicas)
                + (replicas.size() == 1 ? " is the replica" : " the replicas"));
        if (replicas.isEmpty()) {
            timeline.note("no failover drill: the cluster has no replica");
            summary(out, "bootstrapped to Healthy in " + seconds(bootstrap) + "; no failover drill without a replica");
            return;
        }

        // The instance manager in each pod reports how far it has replayed the WAL. The replica last in
        // name order is furthest ahead, so the choice is not the lowest ordinal (the tie-breaker).
        String best = replicas.get(replicas.size() - 1);
        Map<String, Long> lsn = new LinkedHashMap<>();
        lsn.put(primary, PRIMARY_LSN);
        for (String replica : replicas) lsn.put(replica, replica.equals(best) ? BEST_LSN : BEHIND_LSN);
        List<String> reported = new ArrayList<>();
        lsn.forEach((pod, position) -> {
            annotatePod(pod, LSN, String.valueOf(position));
            reported.add(pod + " " + position);
        });
        timeline.note("the instances report the WAL they have replayed (" + LSN + "): " + String.join(", ", reported));

        timeline.note("failover drill: " + primary + ", the primary, stops being ready (the kubelet turns its Ready condition False)");
        worldChange(() -> simulated.podNotReady(pod(primary), clock.instant()));
        awaitCluster("the cluster to see that " + primary + " is not ready",
                seen -> List.of("Degraded", "FailingOver").contains(phase(seen)));

        Duration skip = options.failoverDelay().plusSeconds(1);
        clock.advance(skip);
        timeline.note("the clock jumps " + seconds(skip) + " ahead, past the failover delay of "
                + seconds(options.failoverDelay()) + " (the operator and the simulated controllers share it; nobody waits)");
        // Something for the operator to notice now (the replicas go on reporting), rather than at its
        // next requeue: another replica has caught up a little, still behind the best one.
        String other = replicas.size() > 1 ? replicas.get(0) : best;
        long caughtUp = replicas.size() > 1 ? BEHIND_LSN + 32 : BEST_LSN;
        annotatePod(other, LSN, String.valueOf(caughtUp));
        timeline.note(other + " reports it has replayed " + caughtUp);
        Instant failoverStarted = clock.instant();

        awaitCluster("the failover to start and fence " + primary,
                seen -> best.equals(ObjectPath.read(seen.primary(), "status.targetPrimary"))
                        && "fenced".equals(seen.roles().get(primary)));
        timeline.note(best + " sees it is status.targetPrimary with " + primary + " fenced, promotes itself and reports it ("
                + REPORTED_ROLE + ": primary), as the instance manager would");
        annotatePod(best, REPORTED_ROLE, "primary");
        awaitCluster("the promotion of " + best + " to complete",
                seen -> best.equals(ObjectPath.read(seen.primary(), "status.currentPrimary"))
                        && "primary".equals(seen.roles().get(best)));
        Duration failover = Duration.between(failoverStarted, clock.instant());

        timeline.note(primary + " is ready again (rewound, it follows " + best + ")");
        worldChange(() -> simulated.podReady(pod(primary), clock.instant()));
        Timeline.Seen again = awaitCluster("the cluster to be Healthy again with " + best + " as the primary",
                seen -> converged(seen) && best.equals(ObjectPath.read(seen.primary(), "status.currentPrimary"))
                        && "replica".equals(seen.roles().get(primary)));
        timeline.milestone("Healthy again: " + best + " is the primary, " + String.join(" and ", withRole(again, "replica"))
                + " the replicas");
        summary(out, "bootstrapped to Healthy in " + seconds(bootstrap) + "; failed over from " + primary + " to " + best
                + " in " + seconds(failover) + " once the failover delay had passed");
    }

    private void summary(PrintWriter out, String what) {
        out.println("runbook sandbox: OK. " + cluster.getKind() + " " + cluster.getNamespace() + "/" + cluster.getName() + " "
                + what + "; " + timeline.cycles() + " cycles, " + timeline.changingCycles() + " of them changed something; "
                + seconds(Duration.between(wallStart, Instant.now())) + " of real time in all");
        out.flush();
    }

    /** The server's URL, once started. */
    public String url() { return server.url(); }

    /** Writes a kubeconfig for the server to a temporary file. */
    public Path writeKubeconfig() { return server.writeKubeconfig(cluster.getNamespace()); }

    /** The primary's namespace. */
    public String namespace() { return cluster.getNamespace(); }

    /** Healthy, and the last cycle found nothing left to change. */
    private static boolean converged(Timeline.Seen seen) {
        Object actions = ObjectPath.read(seen.primary(), "status.lastCycle.actions");
        return "Healthy".equals(phase(seen)) && actions instanceof List<?> list
                && list.stream().allMatch(a -> a instanceof Map<?, ?> m && "NONE".equals(m.get("outcome")));
    }

    private static Object phase(Timeline.Seen seen) {
        return ObjectPath.read(seen.primary(), "status.phase");
    }

    /** What a cycle left behind: the primary and the role label of each of its pods. */
    private Timeline.Seen read(ObjectRef primary) {
        Map<String, Object> object = api.get(primary).orElse(Map.of());
        Map<String, String> roles = new java.util.TreeMap<>();
        for (var pod : client.pods().inNamespace(primary.getNamespace()).withLabel(CLUSTER_LABEL, primary.getName()).list().getItems()) {
            var labels = pod.getMetadata().getLabels();
            roles.put(pod.getMetadata().getName(), labels == null ? "" : labels.getOrDefault(ROLE, ""));
        }
        return new Timeline.Seen(object, roles);
    }

    /** Waits until the timeline has printed a cycle that left the cluster as {@code done} wants it. */
    private Timeline.Seen awaitCluster(String what, Predicate<Timeline.Seen> done) {
        try {
            return await().atMost(options.timeout()).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                    .until(timeline::seen, done);
        } catch (ConditionTimeoutException e) {
            throw new NotConvergedException("runbook sandbox: gave up after " + seconds(options.timeout()) + " waiting for "
                    + what + ". What the API server holds now:\n" + state());
        }
    }

    /** A world change that may race a writer (409): tried again until it goes through. */
    private void worldChange(Runnable change) {
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

    /** What the cluster looks like, for a sandbox that did not converge: the primary's status and each pod. */
    String state() {
        StringBuilder state = new StringBuilder();
        Map<String, Object> pg = api.get(cluster).orElse(null);
        String id = "  " + cluster.getKind() + " " + cluster.getNamespace() + "/" + cluster.getName();
        if (pg == null) return state.append(id).append(": not there").toString();
        state.append(id).append(": phase=").append(ObjectPath.read(pg, "status.phase"))
                .append(", readyInstances=").append(ObjectPath.read(pg, "status.readyInstances"))
                .append(" of ").append(ObjectPath.read(pg, "spec.instances"))
                .append(", currentPrimary=").append(ObjectPath.read(pg, "status.currentPrimary"))
                .append(", targetPrimary=").append(ObjectPath.read(pg, "status.targetPrimary"));
        if (ObjectPath.read(pg, "status.conditions") instanceof List<?> conditions) {
            for (Object c : conditions) {
                if (c instanceof Map<?, ?> m && !"True".equals(m.get("status"))) {
                    state.append("\n  condition ").append(m.get("type")).append('=').append(m.get("status")).append(' ')
                            .append(m.get("reason")).append(": ").append(m.get("message"));
                }
            }
        }
        var sets = client.apps().statefulSets().inNamespace(cluster.getNamespace()).list().getItems();
        if (sets.isEmpty()) state.append("\n  no StatefulSet");
        for (var pod : client.pods().inNamespace(cluster.getNamespace()).withLabel(CLUSTER_LABEL, cluster.getName()).list().getItems()) {
            boolean ready = pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions().stream()
                    .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
            var labels = pod.getMetadata().getLabels() == null ? Map.<String, String>of() : pod.getMetadata().getLabels();
            state.append("\n  Pod ").append(pod.getMetadata().getName()).append(": ").append(ready ? "ready" : "not ready")
                    .append(", role=").append(labels.getOrDefault(ROLE, "(none)"));
        }
        return state.toString();
    }

    private static List<String> withRole(Timeline.Seen seen, String role) {
        return seen.roles().entrySet().stream().filter(e -> role.equals(e.getValue())).map(Map.Entry::getKey).toList();
    }

    private ObjectRef pod(String name) {
        return ObjectRef.of("v1", "Pod", cluster.getNamespace(), name);
    }

    /** What the instance manager in the pod does: a merge patch of one annotation. */
    private void annotatePod(String name, String key, String value) {
        String patch = client.getKubernetesSerialization().asJson(Map.of("metadata", Map.of("annotations", Map.of(key, value))));
        worldChange(() -> client.pods().inNamespace(cluster.getNamespace()).withName(name)
                .patch(PatchContext.of(PatchType.JSON_MERGE), patch));
    }

    /** samples/cluster.yaml of the bundle, as maps. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> sample() {
        Path file = bundleDir.resolve("samples/cluster.yaml");
        try (InputStream in = Files.newInputStream(file)) {
            Object parsed = io.fabric8.kubernetes.client.utils.Serialization.unmarshal(in, Map.class);
            if (!(parsed instanceof Map<?, ?> map) || map.get("metadata") == null) {
                throw new IllegalArgumentException(file + ": not a Kubernetes object");
            }
            return new LinkedHashMap<>((Map<String, Object>) map);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot be read (the sandbox applies the bundle's samples/cluster.yaml)", e);
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
