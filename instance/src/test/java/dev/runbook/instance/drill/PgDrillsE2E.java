package dev.runbook.instance.drill;

import dev.runbook.postgres.contract.PostgresContract;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.runbook.instance.loopback.LoopbackKubelet;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The real-PostgreSQL drills (docs/testing.md#real-postgresql-drills): the operator ({@code ./runbook
 * run}) on a real control plane, kwok's pods backed by real instance managers on loopback
 * ({@link LoopbackKubelet}), and a client committing numbered rows throughout. Run by
 * {@code testenv/pg-drills}, which prints the summary line this writes to
 * {@code target/pg-drills/summary.txt}. Skipped without {@code -Drunbook.pg.kubeconfig}.
 */
class PgDrillsE2E {
    static final Duration CONVERGE = Duration.ofSeconds(150);
    /** The first convergence also waits for the operator's and four JVMs' start, minutes on a loaded two-core machine. */
    private static final Duration FIRST_CONVERGE = Duration.ofMinutes(5);
    private static final String ROLE = PostgresContract.ROLE_LABEL;
    private static final String REPORTED = PostgresContract.REPORTED_ROLE;
    private static final String NODE_LOST_FINALIZER = "drills.runbook.dev/node-lost";

    private final Path repo = Path.of("..").toAbsolutePath().normalize();
    private final Path work = Path.of("target/pg-drills").toAbsolutePath();
    private final String namespace = "pg-drills-" + UUID.randomUUID().toString().substring(0, 6);
    private final String password = UUID.randomUUID().toString();
    private final List<String> results = new ArrayList<>();
    private KubernetesClient client;
    private ClusterReads reads;
    private Path pgBin;
    private Kubectl kubectl;
    private Process operator;
    private LoopbackKubelet kubelet;
    private WriteLoad load;
    private int passed;
    private int failed;
    private long failoverLost;
    private long failoverAcked;
    private long switchoverLost;
    private long switchoverAcked;
    private double writableAfter = -1;
    private ObjectStoreClient store;
    private BackupDrills backups;
    private final String restoredPassword = UUID.randomUUID().toString();

    @Test
    void drills() throws Exception {
        String kubeconfig = System.getProperty("runbook.pg.kubeconfig", "");
        Assumptions.assumeTrue(!kubeconfig.isBlank(), "no -Drunbook.pg.kubeconfig: the real-PostgreSQL drills need testenv/up");
        pgBin = Path.of(System.getProperty("runbook.pg.bin", "/usr/lib/postgresql/15/bin"));
        Files.createDirectories(work);
        kubectl = new Kubectl(Path.of(kubeconfig));
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(Path.of(kubeconfig)))).build();
        reads = new ClusterReads(client, namespace);
        setUp(Path.of(kubeconfig), pgBin);

        drill("bootstrap of 3 instances, replication verified in pg_stat_replication", this::bootstrap);
        drill("only the operator and the backup Jobs may call an instance's /status and /backup",
                () -> new EndpointAuthDrill(namespace, kubectl, kubelet).check(current()));
        drill("spec.bootstrap cannot change once the cluster has had a primary (the CRD's transition rule)",
                () -> new BootstrapImmutableDrill(namespace, kubectl, reads).check());
        drill("failover after kill -9 of the primary's server and instance manager", this::failoverAfterKill);
        drill("the former primary rejoins through pg_rewind", this::formerPrimaryRejoins);
        drill("failover after the primary's pod is stuck terminating (node lost)", this::failoverAfterNodeLoss);
        drill("switchover under load loses nothing", this::switchover);
        drill("failover with spec.replication.synchronous loses nothing", this::synchronousFailover);
        drill("a rolling minor upgrade replaces the replicas one at a time, switches over, replaces the old primary, and loses nothing",
                () -> new UpgradeDrill(namespace, kubectl, client, kubelet, () -> load, password).rollTo("postgres:" + UpgradeDrill.serverVersion(pgBin)));
        drill("an instance given another cluster's data refuses to follow, and keeps the data", this::refusesAnotherClustersData);
        drill("a scheduled backup under load, to the object store", () -> backups().scheduledBackup());
        drill("the scheduled backup restored into a new cluster holds every row acknowledged before its end", () -> backups().restoreScheduled());
        drill("an on-demand backup under load, to the object store", () -> backups().onDemandBackup());
        drill("the on-demand backup restored into a new cluster holds every row acknowledged before its end", () -> backups().restoreOnDemand());
        drill("a point-in-time restore holds the rows acknowledged before the target and none sent after it", () -> backups().pointInTime());
        drill("retention deletes the oldest base backup and its WAL from the store", () -> backups().retention());

        String summary = String.format(Locale.ROOT,
                "pg-drills: %d passed, %d failed; failover lost %d of %d acknowledged writes; switchover lost %d of %d; writable again after %.1f s;"
                        + " restore verified %d of %d rows; pitr %s",
                passed, failed, failoverLost, failoverAcked, switchoverLost, switchoverAcked, writableAfter,
                backups == null ? 0 : backups.restoreVerified, backups == null ? 0 : backups.restoreChecked,
                backups != null && backups.pitrVerified ? "verified" : "not verified");
        results.add(summary);
        Files.write(work.resolve("summary.txt"), results);
        System.out.println(String.join("\n", results));
        assertThat(failed).as(String.join("\n", results)).isZero();
    }

    private void drill(String name, Callable<String> body) {
        long start = System.nanoTime();
        String line;
        if (load == null && passed + failed > 0) {
            failed++;
            results.add("FAIL " + name + ": not run, the cluster never bootstrapped");
            System.out.println(results.get(results.size() - 1));
            return;
        }
        try {
            String detail = body.call();
            passed++;
            line = "PASS " + name + " (" + seconds(start) + " s): " + detail;
        } catch (Throwable e) {
            failed++;
            line = "FAIL " + name + " (" + seconds(start) + " s): " + e.getMessage();
        }
        results.add(line);
        System.out.println(line);
    }

    private BackupDrills backups() {
        if (backups == null) {
            throw new IllegalStateException("no object store: run testenv/s3 up and pass -Drunbook.s3.endpoint (testenv/pg-drills does)");
        }
        return backups;
    }

    // ---- the drills ----

    private String bootstrap() throws SQLException {
        await("the cluster is Healthy with a primary and two streaming replicas").atMost(FIRST_CONVERGE).pollInterval(Duration.ofMillis(500))
                .until(() -> "Healthy".equals(status("phase")) && streamingReplicas(current()) == 2
                        && reportedRoles().equals(Map.of("primary", 1L, "replica", 2L)));
        String primary = current();
        WriteLoad.createTable(kubelet.port(primary), password);
        load = new WriteLoad(this::primaryPort, password);
        load.start();
        await("the write load commits").atMost(CONVERGE).until(() -> load.acked().size() > 20);
        return primary + " is the primary; pg_stat_replication on it lists 2 streaming replicas";
    }

    private String failoverAfterKill() throws SQLException {
        KilledPrimary killed = killPrimary();
        String old = killed.old(), now = killed.now();
        double writable = killed.writableSeconds();
        writableAfter = Math.max(writableAfter, writable);
        long[] loss = killed.loss();
        failoverLost += loss[0];
        failoverAcked += loss[1];
        return String.format(Locale.ROOT, "%s killed, %s promoted, writable again after %.1f s, lost %d of %d acknowledged writes",
                old, now, writable, loss[0], loss[1]);
    }

    /** The current primary killed with kill -9 under the write load: who it was, who took over, when writes were acknowledged again, and {lost, acknowledged} since. */
    private record KilledPrimary(String old, String now, double writableSeconds, long[] loss) {}

    private KilledPrimary killPrimary() throws SQLException {
        String old = current();
        int from = load.acked().size();
        long killedAt = System.nanoTime();
        kubelet.kill9(old);
        String now = awaitNewPrimary(old, killedAt);
        double writable = (load.firstAckAfter(killedAt, kubelet.port(old)) - killedAt) / 1e9;
        return new KilledPrimary(old, now, writable, lossSince(from, now));
    }

    private String formerPrimaryRejoins() throws IOException {
        String former = lastKilled;
        kubelet.release(former);
        awaitRejoined(former);
        String log = Files.readString(kubelet.logOf(former));
        assertThat(log).as("the instance manager's log of " + former).contains("pg_rewind done");
        return former + " restarted fenced, was relabelled replica, ran pg_rewind and streams from " + current();
    }

    private String failoverAfterNodeLoss() throws SQLException {
        String old = current();
        int from = load.acked().size();
        kubectl.run("-n", namespace, "patch", "pod", old, "--type=merge", "-p", "{\"metadata\":{\"finalizers\":[\"" + NODE_LOST_FINALIZER + "\"]}}");
        long lostAt = System.nanoTime();
        kubelet.kill9(old);
        kubectl.run("-n", namespace, "delete", "pod", old, "--wait=false");
        String now = awaitNewPrimary(old, lostAt);
        double writable = (load.firstAckAfter(lostAt, kubelet.port(old)) - lostAt) / 1e9;
        writableAfter = Math.max(writableAfter, writable);
        long[] loss = lossSince(from, now);
        failoverLost += loss[0];
        failoverAcked += loss[1];
        // The node comes back: the pod finishes terminating, the StatefulSet makes it again on the same volume.
        kubectl.run("-n", namespace, "patch", "pod", old, "--type=json", "-p", "[{\"op\":\"remove\",\"path\":\"/metadata/finalizers\"}]");
        kubelet.release(old);
        awaitRejoined(old);
        return String.format(Locale.ROOT, "%s stuck terminating, %s promoted, writable again after %.1f s, lost %d of %d; %s rejoined as a replica",
                old, now, writable, loss[0], loss[1], old);
    }

    private String switchover() throws SQLException {
        String old = current();
        String target = client.pods().inNamespace(namespace).withLabel(ROLE, "replica").list().getItems().stream()
                .map(p -> p.getMetadata().getName()).sorted().findFirst().orElseThrow();
        int from = load.acked().size();
        long askedAt = System.nanoTime();
        kubectl.run("-n", namespace, "patch", "postgrescluster", "pg", "--type=merge", "-p",
                "{\"spec\":{\"switchover\":{\"targetInstance\":\"" + target + "\"}}}");
        await("the switchover to " + target + " completes").atMost(CONVERGE).pollInterval(Duration.ofMillis(250))
                .until(() -> target.equals(current()) && target.equals(primaryByLabel()));
        await("writes are acknowledged by " + target).atMost(CONVERGE).until(() -> load.firstAckAfter(askedAt, kubelet.port(old)) > 0
                && load.acked().size() > from + 100);
        double paused = (load.firstAckAfter(askedAt, kubelet.port(old)) - load.lastAckOn(kubelet.port(old))) / 1e9;
        awaitRejoined(old);
        long[] loss = lossSince(from, target);
        switchoverLost += loss[0];
        switchoverAcked += loss[1];
        assertThat(loss[0]).as("acknowledged writes lost in a switchover").isZero();
        return String.format(Locale.ROOT, "%s to %s, writes paused for %.1f s, lost %d of %d acknowledged writes, %s rejoined as a replica",
                old, target, paused, loss[0], loss[1], old);
    }

    private String synchronousFailover() throws Exception {
        kubectl.run("-n", namespace, "patch", "postgrescluster", "pg", "--type=merge", "-p", "{\"spec\":{\"replication\":{\"synchronous\":true}}}");
        await("the primary waits for a standby's flush on every commit").atMost(CONVERGE).pollInterval(Duration.ofMillis(250))
                .until(() -> quorumStandbys(current()) == 2);
        KilledPrimary killed = killPrimary();
        String old = killed.old(), now = killed.now();
        double writable = killed.writableSeconds();
        long[] loss = killed.loss();
        kubelet.release(old);
        awaitRejoined(old);
        assertThat(loss[0]).as("acknowledged writes lost in a failover with synchronous replication").isZero();
        return String.format(Locale.ROOT, "%s killed, %s promoted, writable again after %.1f s, lost %d of %d acknowledged writes; %s rejoined",
                old, now, writable, loss[0], loss[1], old);
    }

    private String refusesAnotherClustersData() throws Exception {
        kubectl.apply("apiVersion: postgres.runbook.dev/v1alpha1\nkind: PostgresCluster\nmetadata: {name: other, namespace: " + namespace + "}\n"
                + "spec:\n  instances: 1\n  image: postgres:15\n  storage: {size: 1Gi}\n  credentials: {secretName: pg-credentials}\n");
        await("the cluster other has its own primary").atMost(CONVERGE).pollInterval(Duration.ofMillis(500))
                .until(() -> "Healthy".equals(reads.status("other", "phase")) && "primary".equals(reads.podAnnotation("other-0", REPORTED)));
        String victim = client.pods().inNamespace(namespace).withLabel(ROLE, "replica").list().getItems().stream()
                .map(p -> p.getMetadata().getName()).filter(n -> n.startsWith("pg-")).sorted().findFirst().orElseThrow();
        // The replica's volume is swapped for the other cluster's, as a mix-up of volumes would.
        kubelet.kill9("other-0");
        kubelet.kill9(victim);
        Path data = kubelet.dataDirOf(victim);
        shell("rm", "-rf", data.toString());
        shell("cp", "-a", kubelet.dataDirOf("other-0").toString(), data.toString());
        String foreign = systemIdentifier(data);
        kubelet.release(victim);
        await(victim + " refuses, saying why").atMost(CONVERGE).pollInterval(Duration.ofMillis(500))
                .until(() -> reads.podAnnotation(victim, PostgresContract.INSTANCE_PROBLEM).contains("different databases"));
        // The instance manager writes the annotation first, then the event: awaited, not read at once.
        String events = await("the InstanceRefused event on " + victim).atMost(CONVERGE).pollInterval(Duration.ofMillis(500))
                .until(() -> kubectl.run("-n", namespace, "get", "events", "--field-selector",
                        "involvedObject.name=" + victim + ",reason=InstanceRefused", "-o", "jsonpath={.items[*].message}"),
                        messages -> messages.contains("different databases"));
        assertThat(data.resolve("PG_VERSION")).as("the data is kept").isRegularFile();
        assertThat(systemIdentifier(data)).as("the data is the other cluster's still").isEqualTo(foreign);
        return victim + " with other-0's data (system identifier " + foreign + "): " + events;
    }

    private String systemIdentifier(Path data) {
        String out = shell(pgBin.resolve("pg_controldata").toString(), "-D", data.toString());
        return out.lines().filter(l -> l.startsWith("Database system identifier:")).map(l -> l.substring(l.indexOf(':') + 1).trim())
                .findFirst().orElseThrow();
    }

    private static String shell(String... command) {
        return Commands.run(new ProcessBuilder(command), null, String.join(" ", command));
    }

    /** Standbys the primary counts for its synchronous commits (sync_state 'quorum' under ANY 1 (*)). */
    private long quorumStandbys(String primary) {
        try (Connection c = WriteLoad.connect(kubelet.port(primary), password); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select count(*) from pg_stat_replication where sync_state = 'quorum'"
                     + " and current_setting('synchronous_standby_names') = 'ANY 1 (*)'")) {
            r.next();
            return r.getLong(1);
        } catch (SQLException e) {
            return -1;
        }
    }

    // ---- shared steps ----

    private String lastKilled;

    private String awaitNewPrimary(String old, long since) {
        lastKilled = old;
        await("a replica is promoted in place of " + old).atMost(CONVERGE).pollInterval(Duration.ofMillis(250))
                .until(() -> !old.equals(current()) && !current().isEmpty() && current().equals(primaryByLabel()));
        await("writes are acknowledged again").atMost(CONVERGE).pollInterval(Duration.ofMillis(100))
                .until(() -> load.firstAckAfter(since, kubelet.port(old)) > 0);
        int at = load.acked().size();
        await("the load goes on").atMost(CONVERGE).until(() -> load.acked().size() > at + 50);
        return current();
    }

    private void awaitRejoined(String instance) {
        await(instance + " streams from the primary as a replica").atMost(CONVERGE).pollInterval(Duration.ofMillis(500))
                .until(() -> "replica".equals(reads.podLabel(instance, ROLE)) && "replica".equals(reads.podAnnotation(instance, REPORTED))
                        && streamingReplicas(current()) == 2 && "Healthy".equals(status("phase")));
    }

    /** {lost, acknowledged} for the acknowledgements from index {@code from} on, checked on {@code primary}. */
    private long[] lossSince(int from, String primary) throws SQLException {
        List<WriteLoad.Ack> window = load.acked().subList(from, load.acked().size());
        Set<Long> lost = WriteLoad.missing(window, kubelet.port(primary), password);
        return new long[] {lost.size(), window.size()};
    }

    private Integer primaryPort() {
        String primary = primaryByLabel();
        return primary == null ? null : kubelet.port(primary);
    }

    /** What the NAME-rw service selects: the one pod labelled primary that is not being deleted. */
    private String primaryByLabel() {
        List<Pod> pods = client.pods().inNamespace(namespace).withLabel(ROLE, "primary").list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
        return pods.size() == 1 ? pods.get(0).getMetadata().getName() : null;
    }

    private long streamingReplicas(String primary) {
        if (primary == null || primary.isEmpty()) {
            return -1;
        }
        try (Connection c = WriteLoad.connect(kubelet.port(primary), password); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select count(*) from pg_stat_replication where state = 'streaming'")) {
            r.next();
            return r.getLong(1);
        } catch (SQLException e) {
            return -1;
        }
    }

    private Map<String, Long> reportedRoles() {
        Map<String, Long> roles = new java.util.TreeMap<>();
        client.pods().inNamespace(namespace).withLabel(PostgresContract.CLUSTER_LABEL, "pg").list().getItems()
                .forEach(p -> roles.merge(p.getMetadata().getAnnotations() == null ? "" : p.getMetadata().getAnnotations().getOrDefault(REPORTED, ""), 1L, Long::sum));
        return roles;
    }

    private String current() {
        return status("currentPrimary");
    }

    private String status(String field) {
        return reads.status("pg", field);
    }

    private static String seconds(long startNanos) {
        return String.format(Locale.ROOT, "%.1f", (System.nanoTime() - startNanos) / 1e9);
    }

    // ---- the world ----

    private void setUp(Path kubeconfig, Path pgBin) throws IOException {
        kubectl.run("apply", "-f", repo.resolve("runbooks/postgres-cluster/crds").toString());
        kubectl.run("create", "namespace", namespace);
        StringBuilder volumes = new StringBuilder();
        // One volume per claim, bound to it in advance, so the drills take nothing from testenv's shared pool.
        List<String> claims = List.of("data-pg-0", "data-pg-1", "data-pg-2", "data-other-0", "data-restored-a-0", "data-restored-b-0", "data-pitr-0");
        for (int i = 0; i < claims.size(); i++) {
            volumes.append("---\napiVersion: v1\nkind: PersistentVolume\nmetadata: {name: ").append(namespace).append("-pv-").append(i)
                    .append(", labels: {runbook.dev/pg-drills: ").append(namespace).append("}}\n")
                    .append("spec: {capacity: {storage: 10Gi}, accessModes: [ReadWriteOnce], persistentVolumeReclaimPolicy: Retain, hostPath: {path: /tmp/")
                    .append(namespace).append("-").append(i).append("}, claimRef: {namespace: ").append(namespace)
                    .append(", name: ").append(claims.get(i)).append("}}\n");
        }
        kubectl.apply(volumes.toString());
        kubectl.run("-n", namespace, "create", "secret", "generic", "pg-credentials", "--from-literal=password=" + password);
        store = ObjectStoreClient.fromSystemProperties();
        String backupSpec = "";
        if (store != null) {
            kubectl.run("-n", namespace, "create", "secret", "generic", BackupDrills.STORE_SECRET, "--from-literal=ACCESS_KEY_ID=" + store.accessKey(),
                    "--from-literal=ACCESS_SECRET_KEY=" + store.secretKey());
            // The restored clusters have a password of their own: the restore must set it over the original's.
            kubectl.run("-n", namespace, "create", "secret", "generic", BackupDrills.RESTORED_SECRET, "--from-literal=password=" + restoredPassword);
            backupSpec = "  backup:\n    objectStore: " + BackupDrills.objectStoreYaml(store, namespace) + "\n";
        }
        ProcessBuilder run = new ProcessBuilder(repo.resolve("runbook").toString(), "run", "--bundle", "runbooks/postgres-cluster",
                "--namespace", namespace, "--http-port", "0")
                .directory(repo.toFile()).redirectErrorStream(true).redirectOutput(work.resolve("operator.log").toFile());
        run.environment().put("KUBECONFIG", kubeconfig.toString());
        operator = run.start();
        kubelet = new LoopbackKubelet(client, namespace, Path.of(System.getProperty("runbook.pg.work", "/tmp/runbook-pg-drills")).resolve(namespace), Path.of("target/runbook-instance.jar").toAbsolutePath(),
                pgBin, kubeconfig, Integer.getInteger("runbook.pg.port", 25400));
        kubelet.start();
        kubectl.apply("apiVersion: postgres.runbook.dev/v1alpha1\nkind: PostgresCluster\nmetadata: {name: pg, namespace: " + namespace + "}\n"
                + "spec:\n  instances: 3\n  image: postgres:15\n  storage: {size: 1Gi}\n  failoverDelay: 5s\n"
                + "  credentials: {secretName: pg-credentials}\n" + backupSpec);
        if (store != null) {
            backups = new BackupDrills(namespace, kubectl, client, kubelet, () -> load, store, password, restoredPassword);
        }
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        if (load != null) {
            load.close();
        }
        if (kubelet != null) {
            kubelet.close();
        }
        if (operator != null) {
            operator.destroy();
            operator.waitFor();
        }
        if (kubectl != null) {
            try {
                for (String pod : List.of("pg-0", "pg-1", "pg-2")) {
                    kubectl.run("-n", namespace, "patch", "pod", pod, "--type=merge", "-p", "{\"metadata\":{\"finalizers\":null}}");
                }
            } catch (RuntimeException ignored) {
                // no pod kept a finalizer
            }
            DrillNamespace.saveAndDelete(kubectl, namespace, work, "runbook.dev/pg-drills");
        }
        if (client != null) {
            client.close();
        }
    }
}
