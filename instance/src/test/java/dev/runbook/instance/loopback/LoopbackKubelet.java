package dev.runbook.instance.loopback;

import dev.runbook.postgres.contract.PostgresContract;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Plays the kubelet for the postgres-cluster pods that kwok only pretends to run: for every such
 * pod in one namespace it runs a real instance manager (the pod's container command, with the pod's
 * environment resolved as a kubelet would: field references and Secret keys) on loopback, with a
 * data directory and ports of its own; it turns the pod's Ready condition from the process's
 * {@code /readyz}; it stops the process when the pod is deleted or replaced. The resolution shim:
 * it writes {@code addresses.properties} (pod name to 127.0.0.1:port), which the instance managers
 * read through {@code RUNBOOK_INSTANCE_ADDRESSES} in place of cluster DNS (docs/instance-manager.md).
 *
 * <p>Run alone: {@code testenv/pg-instances NAMESPACE}.
 */
public final class LoopbackKubelet implements AutoCloseable {
    private static final String CLUSTER_LABEL = PostgresContract.CLUSTER_LABEL;
    private static final Duration TICK = Duration.ofMillis(500);
    /** Who the instances run as when this runs as root (PostgreSQL refuses root): Debian's postgres user. */
    private static final String RUN_AS = "root".equals(System.getProperty("user.name"))
            ? System.getProperty("runbook.pg.user", "postgres") : null;

    private final KubernetesClient client;
    private final String namespace;
    private final Path base;
    private final Path instanceJar;
    private final Path pgBin;
    private final Path kubeconfig;
    private final int basePort;
    private final Map<String, InstanceProcess> running = new ConcurrentHashMap<>();
    private final Map<String, Integer> slots = new ConcurrentHashMap<>();
    private final Set<String> held = ConcurrentHashMap.newKeySet();
    private final Map<String, String> probeAnswers = new ConcurrentHashMap<>();
    private final PodEnvironment environment;
    private final BackupJobPods backupJobs;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "loopback-kubelet");
        t.setDaemon(true);
        return t;
    });

    public LoopbackKubelet(KubernetesClient client, String namespace, Path base, Path instanceJar, Path pgBin, Path kubeconfig, int basePort) {
        this.client = client;
        this.namespace = namespace;
        this.base = base;
        this.instanceJar = instanceJar;
        this.pgBin = pgBin;
        this.kubeconfig = kubeconfig;
        this.basePort = basePort;
        this.environment = new PodEnvironment(client, namespace);
        this.backupJobs = new BackupJobPods(client, namespace, environment, this::javaCommand, base, this::note);
    }

    public void start() {
        try {
            Files.createDirectories(base);
            Files.writeString(addressFile(), "");
            if (RUN_AS != null) {
                // PostgreSQL refuses to run as root: the instances run as the postgres user, with their
                // own copies of what they read (the kubeconfig stands in for the ServiceAccount's token).
                Files.copy(kubeconfig, base.resolve("kubeconfig"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                Files.copy(instanceJar, base.resolve("runbook-instance.jar"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                giveAway(base);
                giveAway(base.resolve("kubeconfig"));
                giveAway(base.resolve("runbook-instance.jar"));
                giveAway(addressFile());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ticker.scheduleWithFixedDelay(this::tickQuietly, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The server's port of an instance (its pod name), as the address file says. */
    public int port(String pod) {
        return basePort + 2 * slot(pod);
    }

    public Path logOf(String pod) {
        return base.resolve(pod + ".log");
    }

    /** The instance's data directory: its volume, kept across restarts and recreated pods of the same name. */
    public Path dataDirOf(String pod) {
        return base.resolve(pod).resolve("data");
    }

    /** The container dies (SIGKILL to the server and the instance manager) and is not restarted until {@link #release}. */
    public void kill9(String pod) {
        held.add(pod);
        InstanceProcess p = running.remove(pod);
        if (p != null) {
            p.kill9();
        }
    }

    public void release(String pod) {
        held.remove(pod);
    }

    /** The pid of the instance manager's JVM of a running instance, if it runs. */
    public OptionalLong managerPid(String pod) {
        InstanceProcess p = running.get(pod);
        return p == null || !p.alive() ? OptionalLong.empty() : OptionalLong.of(p.managerPid());
    }

    /** The pid of the postmaster running on the instance's data directory, if one runs. */
    public OptionalLong postmasterPid(String pod) {
        InstanceProcess p = running.get(pod);
        return p == null ? OptionalLong.empty()
                : p.postmaster().filter(ProcessHandle::isAlive).map(h -> OptionalLong.of(h.pid())).orElse(OptionalLong.empty());
    }

    /** The server's log of an instance (PostgreSQL's, in its run directory, appended across restarts). */
    public Path serverLogOf(String pod) {
        return base.resolve(pod).resolve("run").resolve("postgresql.log");
    }

    /** The instances this kubelet has given a port, by pod name. */
    public Set<String> instances() {
        return Set.copyOf(slots.keySet());
    }

    private void tickQuietly() {
        try {
            tick();
        } catch (Throwable e) {
            // The kubelet goes on; what went wrong is kept next to the instances' logs.
            java.io.StringWriter trace = new java.io.StringWriter();
            e.printStackTrace(new java.io.PrintWriter(trace));
            note(trace.toString());
        }
    }

    private void tick() {
        backupJobs.tick(addressFile(), RUN_AS == null ? kubeconfig : base.resolve("kubeconfig"));
        List<Pod> pods = client.pods().inNamespace(namespace).withLabel(CLUSTER_LABEL).list().getItems();
        Map<String, Pod> byName = new LinkedHashMap<>();
        pods.forEach(p -> byName.put(p.getMetadata().getName(), p));
        for (InstanceProcess p : List.copyOf(running.values())) {
            Pod pod = byName.get(p.pod());
            if (pod == null || !pod.getMetadata().getUid().equals(p.uid()) || pod.getMetadata().getDeletionTimestamp() != null) {
                running.remove(p.pod());
                p.terminate();
            } else if (!p.alive()) {
                running.remove(p.pod());    // it exited: started again below, as a container is restarted
            }
        }
        for (Pod pod : pods) {
            String name = pod.getMetadata().getName();
            boolean scheduledAndRunning = pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase());
            if (!running.containsKey(name) && !held.contains(name) && scheduledAndRunning && pod.getMetadata().getDeletionTimestamp() == null) {
                running.put(name, launch(pod));
            }
            if (scheduledAndRunning && pod.getMetadata().getDeletionTimestamp() == null) {
                InstanceProcess p = running.get(name);
                setReady(pod, p != null && ready(p));
            }
        }
    }

    private InstanceProcess launch(Pod pod) {
        String name = pod.getMetadata().getName();
        int port = port(name);
        Path home = base.resolve(name);
        Path dataDir = dataDirOf(name);
        writeAddresses();
        Container container = pod.getSpec().getContainers().get(0);
        Map<String, String> env = environment.of(pod, container);
        env.put("PGDATA", dataDir.toString());
        env.put("RUNBOOK_INSTANCE_RUN_DIR", home.resolve("run").toString());
        env.put("PGPORT", Integer.toString(port));
        env.put("PG_BIN", pgBin.toString());
        env.put("RUNBOOK_INSTANCE_LISTEN", "127.0.0.1");
        env.put("RUNBOOK_INSTANCE_HTTP_PORT", Integer.toString(port + 1));
        env.put("RUNBOOK_INSTANCE_ADDRESSES", addressFile().toString());
        env.put("KUBECONFIG", RUN_AS == null ? kubeconfig.toString() : base.resolve("kubeconfig").toString());
        try {
            Files.createDirectories(home);
            if (RUN_AS != null) {
                giveAway(home);
            }
            List<String> command = javaCommand();
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logOf(name).toFile()));
            builder.environment().putAll(env);
            Files.writeString(logOf(name), "---- " + Instant.now() + " loopback-kubelet: starting the container of pod "
                    + name + " (uid " + pod.getMetadata().getUid() + ")\n", java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            return new InstanceProcess(name, pod.getMetadata().getUid(), builder.start(), dataDir, port + 1);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the instance manager of " + name, e);
        }
    }

    /** The database image's /opt/runbook/instance-manager, on loopback: the instance jar, as the postgres user when run as root. */
    private List<String> javaCommand() {
        List<String> command = new java.util.ArrayList<>();
        if (RUN_AS != null) {
            command.addAll(List.of("runuser", "-u", RUN_AS, "--"));
        }
        command.addAll(List.of("java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx96m",
                "-jar", RUN_AS == null ? instanceJar.toString() : base.resolve("runbook-instance.jar").toString()));
        return command;
    }

    private boolean ready(InstanceProcess p) {
        String answer;
        if (!p.alive()) {
            answer = "the process is not running";
        } else {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + p.httpPort() + "/readyz"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                answer = r.statusCode() + " " + r.body().strip();
            } catch (IOException e) {
                answer = "no answer: " + e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                answer = "interrupted";
            }
        }
        if (!answer.equals(probeAnswers.put(p.pod(), answer))) {
            note(p.pod() + " /readyz: " + answer);
        }
        return answer.startsWith("200 ");
    }

    private void setReady(Pod pod, boolean ready) {
        String wanted = ready ? "True" : "False";
        if (conditionsSay(pod, wanted)) {
            return;
        }
        // The instance manager patches its own pod too: on a conflict, read the pod again and retry.
        for (int attempt = 0; attempt < 3; attempt++) {
            Pod fresh = attempt == 0 ? pod : client.pods().inNamespace(namespace).withName(pod.getMetadata().getName()).get();
            if (fresh == null || conditionsSay(fresh, wanted)) {
                return;
            }
            for (PodCondition c : fresh.getStatus().getConditions()) {
                if (("Ready".equals(c.getType()) || "ContainersReady".equals(c.getType())) && !wanted.equals(c.getStatus())) {
                    c.setStatus(wanted);
                    c.setLastTransitionTime(Instant.now().toString());
                }
            }
            try {
                client.pods().inNamespace(namespace).resource(fresh).updateStatus();
                note(pod.getMetadata().getName() + " Ready=" + wanted);
                return;
            } catch (KubernetesClientException e) {
                note(pod.getMetadata().getName() + " Ready=" + wanted + " not written (" + e.getCode() + "): " + e.getMessage());
            }
        }
    }

    private static boolean conditionsSay(Pod pod, String wanted) {
        return pod.getStatus().getConditions().stream()
                .filter(c -> "Ready".equals(c.getType()) || "ContainersReady".equals(c.getType()))
                .allMatch(c -> wanted.equals(c.getStatus()));
    }

    void note(String line) {
        try {
            Files.writeString(base.resolve("kubelet.log"), Instant.now() + " " + line + "\n",
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException ignored) {
            // nowhere to write it
        }
    }

    private static void giveAway(Path path) throws IOException {
        var users = path.getFileSystem().getUserPrincipalLookupService();
        Files.setOwner(path, users.lookupPrincipalByName(RUN_AS));
        Files.getFileAttributeView(path, java.nio.file.attribute.PosixFileAttributeView.class)
                .setGroup(users.lookupPrincipalByGroupName(RUN_AS));
    }

    private int slot(String pod) {
        return slots.computeIfAbsent(pod, p -> slots.size());
    }

    private Path addressFile() {
        return base.resolve("addresses.properties");
    }

    private synchronized void writeAddresses() {
        StringBuilder text = new StringBuilder("# pod name = the loopback address of its server (written by the loopback kubelet)\n");
        slots.keySet().stream().sorted().forEach(p -> text.append(p).append("=127.0.0.1:").append(port(p)).append('\n')
                .append(p).append(".http=127.0.0.1:").append(port(p) + 1).append('\n'));
        try {
            Path tmp = Files.createTempFile(base, "addresses", ".tmp");
            Files.writeString(tmp, text);
            Files.setPosixFilePermissions(tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            Files.move(tmp, addressFile(), java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        running.values().forEach(InstanceProcess::terminate);
        running.clear();
        backupJobs.close();
    }

    /** testenv/pg-instances NAMESPACE WORKDIR INSTANCE_JAR PG_BIN BASE_PORT: runs until interrupted. */
    public static void main(String[] args) throws InterruptedException {
        if (args.length != 5) {
            System.err.println("usage: LoopbackKubelet NAMESPACE WORKDIR INSTANCE_JAR PG_BIN BASE_PORT");
            System.exit(2);
        }
        KubernetesClient client = new KubernetesClientBuilder().build();
        String kubeconfig = System.getenv().getOrDefault("KUBECONFIG", System.getProperty("user.home") + "/.kube/config");
        LoopbackKubelet kubelet = new LoopbackKubelet(client, args[0], Path.of(args[1]), Path.of(args[2]), Path.of(args[3]),
                Path.of(kubeconfig), Integer.parseInt(args[4]));
        Runtime.getRuntime().addShutdownHook(new Thread(kubelet::close));
        kubelet.start();
        System.err.println("loopback-kubelet: running the instance managers of namespace " + args[0] + " under " + args[1]);
        Thread.currentThread().join();
    }
}
