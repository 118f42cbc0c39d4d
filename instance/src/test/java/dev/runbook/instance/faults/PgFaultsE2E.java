package dev.runbook.instance.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.runbook.instance.drill.DrillNamespace;
import dev.runbook.instance.drill.Kubectl;
import dev.runbook.instance.loopback.LoopbackKubelet;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The fault suite (docs/testing.md#the-fault-suite): faults nobody scripted, drawn at random moments
 * from a seed, against the postgres-cluster runbook on a real control plane with real PostgreSQL
 * servers behind kwok's pods ({@link LoopbackKubelet}), under the writes of its own {@link Ledger}.
 * Run by {@code testenv/pg-faults}, which prints the lines this writes to
 * {@code target/pg-faults/summary.txt}; the last one is
 * {@code pg-faults: R runs, C correct; acknowledged writes lost L of A; split-brain writes S; max unavailable U s}.
 * Skipped without {@code -Drunbook.pg.kubeconfig}.
 */
class PgFaultsE2E {
    private static final Duration FIRST_CONVERGE = Duration.ofMinutes(5);
    private static final int INSTANCES = 3;

    private final Path repo = Path.of("..").toAbsolutePath().normalize();
    private final Path work = Path.of("target/pg-faults").toAbsolutePath();
    private final String namespace = "pg-faults-" + UUID.randomUUID().toString().substring(0, 6);
    private final String password = UUID.randomUUID().toString();
    private KubernetesClient client;
    private Kubectl kubectl;
    private LoopbackKubelet kubelet;
    private FaultWorld world;
    private Ledger ledger;
    private ContractWatch watch;

    @Test
    void faults() throws Exception {
        String kubeconfig = System.getProperty("runbook.pg.kubeconfig", "");
        Assumptions.assumeTrue(!kubeconfig.isBlank(), "no -Drunbook.pg.kubeconfig: the fault suite needs testenv/up");
        long seed = Long.getLong("runbook.faults.seed", new java.security.SecureRandom().nextInt(1_000_000_000));
        int runs = Integer.getInteger("runbook.faults.runs", 20);
        String failoverDelay = System.getProperty("runbook.faults.failoverDelay", "3s");
        long delayMs = Duration.parse("PT" + failoverDelay.toUpperCase(Locale.ROOT)).toMillis();
        Files.createDirectories(work);
        Path summary = work.resolve("summary.txt");
        Files.deleteIfExists(summary);
        print(summary, String.format(Locale.ROOT, "pg-faults: seed %d, %d runs, failoverDelay %s (replay: testenv/pg-faults --seed %d --runs %d;"
                + " one run: --seed RUN_SEED --runs 1)", seed, runs, failoverDelay, seed, runs));
        setUp(Path.of(kubeconfig), failoverDelay);

        List<FaultRun.Result> results = new ArrayList<>();
        FaultRun runner = new FaultRun(world, ledger, watch, INSTANCES);
        long suiteStarted = System.nanoTime();
        for (int i = 0; i < runs; i++) {
            FaultRun.Result result = runner.run(FaultPlan.draw(seed + i, delayMs));
            results.add(result);
            print(summary, result.line(i + 1, runs));
            if (!result.recovered()) {
                // A cluster that does not come back tells nothing more about the faults after it.
                print(summary, "the cluster did not recover after run " + (i + 1) + ": the " + (runs - i - 1) + " runs left are counted as not correct");
                break;
            }
        }
        long correct = results.stream().filter(FaultRun.Result::correct).count();
        long lost = results.stream().mapToLong(FaultRun.Result::lost).sum();
        long acked = results.stream().mapToLong(FaultRun.Result::acked).sum();
        long split = results.stream().mapToLong(FaultRun.Result::splitBrain).sum();
        double unavailable = results.stream().mapToDouble(FaultRun.Result::unavailableSeconds).max().orElse(0);
        print(summary, String.format(Locale.ROOT, "by mode: synchronous lost %d of %d, asynchronous lost %d of %d; %.0f s for the %d runs made",
                lostIn(results, true), ackedIn(results, true), lostIn(results, false), ackedIn(results, false),
                (System.nanoTime() - suiteStarted) / 1e9, results.size()));
        String line = String.format(Locale.ROOT, "pg-faults: %d runs, %d correct; acknowledged writes lost %d of %d; split-brain writes %d;"
                + " max unavailable %.1f s", runs, correct, lost, acked, split, unavailable);
        print(summary, line);
        assertThat(correct).as(line).isEqualTo(runs);
    }

    private static long lostIn(List<FaultRun.Result> results, boolean synchronous) {
        return results.stream().filter(r -> r.plan().synchronous() == synchronous).mapToLong(FaultRun.Result::lost).sum();
    }

    private static long ackedIn(List<FaultRun.Result> results, boolean synchronous) {
        return results.stream().filter(r -> r.plan().synchronous() == synchronous).mapToLong(FaultRun.Result::acked).sum();
    }

    private static void print(Path summary, String line) throws IOException {
        System.out.println(line);
        Files.writeString(summary, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private void setUp(Path kubeconfig, String failoverDelay) throws Exception {
        kubectl = new Kubectl(kubeconfig);
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(kubeconfig))).build();
        kubectl.run("apply", "-f", repo.resolve("runbooks/postgres-cluster/crds").toString());
        kubectl.run("create", "namespace", namespace);
        StringBuilder volumes = new StringBuilder();
        for (int i = 0; i < INSTANCES; i++) {
            volumes.append("---\napiVersion: v1\nkind: PersistentVolume\nmetadata: {name: ").append(namespace).append("-pv-").append(i)
                    .append(", labels: {runbook.dev/pg-faults: ").append(namespace).append("}}\n")
                    .append("spec: {capacity: {storage: 10Gi}, accessModes: [ReadWriteOnce], persistentVolumeReclaimPolicy: Retain, hostPath: {path: /tmp/")
                    .append(namespace).append("-").append(i).append("}, claimRef: {namespace: ").append(namespace)
                    .append(", name: data-pg-").append(i).append("}}\n");
        }
        kubectl.apply(volumes.toString());
        kubectl.run("-n", namespace, "create", "secret", "generic", "pg-credentials", "--from-literal=password=" + password);
        Path pgBin = Path.of(System.getProperty("runbook.pg.bin", "/usr/lib/postgresql/15/bin"));
        kubelet = new LoopbackKubelet(client, namespace, Path.of(System.getProperty("runbook.pg.work", "/tmp/runbook-pg-faults")).resolve(namespace),
                Path.of("target/runbook-instance.jar").toAbsolutePath(), pgBin, kubeconfig, Integer.getInteger("runbook.pg.port", 25500));
        world = new FaultWorld(namespace, password, client, kubectl, kubelet, repo, work, kubeconfig,
                Path.of(System.getProperty("runbook.faults.apiserverPidFile", "/tmp/runbook-testenv/run/kube-apiserver.pid")));
        world.startOperator();
        kubelet.start();
        kubectl.apply("apiVersion: postgres.runbook.dev/v1alpha1\nkind: PostgresCluster\nmetadata: {name: pg, namespace: " + namespace + "}\n"
                + "spec:\n  instances: " + INSTANCES + "\n  image: postgres:15\n  storage: {size: 1Gi}\n  failoverDelay: " + failoverDelay + "\n"
                + "  failover: {leaseDuration: " + System.getProperty("runbook.faults.leaseDuration", "10s") + "}\n"
                + "  credentials: {secretName: pg-credentials}\n");
        await("the cluster is Healthy with a primary and two streaming replicas").atMost(FIRST_CONVERGE).pollInterval(Duration.ofSeconds(1))
                .until(() -> Convergence.unmet(world, INSTANCES).isEmpty());
        Ledger.createTable(world.port(world.currentPrimary()), password);
        ledger = new Ledger(world::primaryPort, password);
        ledger.start();
        watch = new ContractWatch(client, namespace, world.ports(), password);
        watch.start();
        await("the ledger's writes are acknowledged").atMost(Duration.ofSeconds(60)).until(() -> ledger.size() > 20);
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        if (ledger != null) {
            ledger.close();
        }
        if (watch != null) {
            watch.close();
        }
        if (kubelet != null) {
            kubelet.close();
        }
        if (world != null) {
            world.close();
        }
        if (kubectl != null) {
            DrillNamespace.saveAndDelete(kubectl, namespace, work, "runbook.dev/pg-faults");
        }
        if (client != null) {
            client.close();
        }
    }
}
