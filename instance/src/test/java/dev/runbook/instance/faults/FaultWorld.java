package dev.runbook.instance.faults;

import dev.runbook.postgres.contract.PostgresContract;
import dev.runbook.instance.drill.ClusterReads;
import dev.runbook.instance.drill.Kubectl;
import dev.runbook.instance.loopback.LoopbackKubelet;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The cluster a fault suite runs against, and the levers a fault pulls: the operator process (kill -9,
 * start again), the API server's process (pause, resume), the instances (through the loopback
 * kubelet), the cluster's spec (the replication mode, a switchover request), and what the read-write
 * service would select (a cached view of the pod labelled primary, as kube-proxy's rules outlive a
 * hung API server).
 */
final class FaultWorld implements AutoCloseable {
    static final String CLUSTER = "pg";
    static final String ROLE = PostgresContract.ROLE_LABEL;
    static final String REPORTED = PostgresContract.REPORTED_ROLE;

    final String namespace;
    final String password;
    final KubernetesClient client;
    final Kubectl kubectl;
    final ClusterReads reads;
    final LoopbackKubelet kubelet;
    private final Path repo;
    private final Path work;
    private final Path kubeconfig;
    private final Path apiserverPidFile;
    private final ScheduledExecutorService endpoints = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "rw-endpoint");
        t.setDaemon(true);
        return t;
    });
    private volatile String primaryEndpoint;
    private Process operator;
    private int operatorStarts;

    FaultWorld(String namespace, String password, KubernetesClient client, Kubectl kubectl, LoopbackKubelet kubelet,
               Path repo, Path work, Path kubeconfig, Path apiserverPidFile) {
        this.namespace = namespace;
        this.password = password;
        this.client = client;
        this.kubectl = kubectl;
        this.reads = new ClusterReads(client, namespace);
        this.kubelet = kubelet;
        this.repo = repo;
        this.work = work;
        this.kubeconfig = kubeconfig;
        this.apiserverPidFile = apiserverPidFile;
        endpoints.scheduleWithFixedDelay(this::refreshEndpoint, 0, 200, TimeUnit.MILLISECONDS);
    }

    // ---- the operator ----

    synchronized void startOperator() {
        if (operator != null && operator.isAlive()) {
            return;
        }
        operatorStarts++;
        ProcessBuilder run = new ProcessBuilder(repo.resolve("runbook").toString(), "run", "--bundle", "runbooks/postgres-cluster",
                "--namespace", namespace, "--http-port", "0")
                .directory(repo.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(work.resolve("operator.log").toFile()));
        run.environment().put("KUBECONFIG", kubeconfig.toString());
        try {
            Files.writeString(work.resolve("operator.log"), "---- start " + operatorStarts + " at " + java.time.Instant.now() + "\n",
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            operator = run.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the operator", e);
        }
    }

    /** SIGKILL: the operator dies in the middle of whatever it does. */
    synchronized void killOperator() {
        if (operator != null) {
            operator.destroyForcibly();
            try {
                operator.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    synchronized boolean operatorRunning() {
        return operator != null && operator.isAlive();
    }

    // ---- the API server ----

    long apiserverPid() {
        try {
            return Long.parseLong(Files.readString(apiserverPidFile).trim());
        } catch (IOException | NumberFormatException e) {
            throw new IllegalStateException("cannot read the API server's pid from " + apiserverPidFile + ": " + e.getMessage(), e);
        }
    }

    // ---- the cluster ----

    String currentPrimary() {
        return reads.status(CLUSTER, "currentPrimary");
    }

    int port(String instance) {
        return kubelet.port(instance);
    }

    /** Instance name to server port, for every instance of the cluster. */
    Map<String, Integer> ports() {
        Map<String, Integer> ports = new TreeMap<>();
        for (Pod p : pods()) {
            ports.put(p.getMetadata().getName(), port(p.getMetadata().getName()));
        }
        return ports;
    }

    List<Pod> pods() {
        return client.pods().inNamespace(namespace).withLabel(PostgresContract.CLUSTER_LABEL, CLUSTER).list().getItems();
    }

    /** The pods labelled replica, by name. */
    List<String> replicas() {
        return pods().stream().filter(p -> "replica".equals(label(p, ROLE))).map(p -> p.getMetadata().getName()).sorted().toList();
    }

    /** The instance's pod is ready and labelled primary. */
    boolean readyPrimary(String instance) {
        Pod pod = client.pods().inNamespace(namespace).withName(instance).get();
        return pod != null && "primary".equals(label(pod, ROLE)) && pod.getStatus() != null && pod.getStatus().getConditions() != null
                && pod.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** The port of the server the read-write service selects now (null when it selects none), from the cached view. */
    Integer primaryPort() {
        String primary = primaryEndpoint;
        return primary == null ? null : port(primary);
    }

    private void refreshEndpoint() {
        try {
            List<Pod> primaries = client.pods().inNamespace(namespace).withLabel(ROLE, "primary").list().getItems().stream()
                    .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
            primaryEndpoint = primaries.size() == 1 ? primaries.get(0).getMetadata().getName() : null;
        } catch (RuntimeException e) {
            // The API server does not answer: the service's last endpoints stay, as kube-proxy's rules do.
        }
    }

    void setSynchronous(boolean synchronous) {
        kubectl.run("-n", namespace, "patch", "postgrescluster", CLUSTER, "--type=merge", "-p",
                "{\"spec\":{\"replication\":{\"synchronous\":" + synchronous + "}}}");
    }

    /** The primary's synchronous_standby_names says what the spec asks for. */
    boolean synchronousApplied(boolean synchronous) {
        String primary = currentPrimary();
        if (primary.isEmpty()) {
            return false;
        }
        try (Connection c = Ledger.connect(port(primary), password); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select current_setting('synchronous_standby_names')")) {
            r.next();
            return r.getString(1).isEmpty() != synchronous;
        } catch (SQLException e) {
            return false;
        }
    }

    void requestSwitchover(String target) {
        kubectl.run("-n", namespace, "patch", "postgrescluster", CLUSTER, "--type=merge", "-p",
                "{\"spec\":{\"switchover\":{\"targetInstance\":\"" + target + "\"}}}");
    }

    /** A user removes a switchover request once it is carried out. */
    void removeSwitchoverRequest() {
        kubectl.run("-n", namespace, "patch", "postgrescluster", CLUSTER, "--type=merge", "-p", "{\"spec\":{\"switchover\":null}}");
    }

    static String label(Pod pod, String key) {
        return pod.getMetadata().getLabels() == null ? "" : pod.getMetadata().getLabels().getOrDefault(key, "");
    }

    static String annotation(Pod pod, String key) {
        return pod.getMetadata().getAnnotations() == null ? "" : pod.getMetadata().getAnnotations().getOrDefault(key, "");
    }

    @Override
    public void close() {
        endpoints.shutdownNow();
        killOperator();
    }
}
