package dev.runbook.sandbox;

import dev.runbook.cli.Runbook;
import dev.runbook.operator.cli.RunbookCommand;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code runbook sandbox}, run in-process as from the command line (from the module directory). */
class SandboxCommandTest {
    private static final String WEB_APP = "../operator/src/test/resources/bundles/web-app";

    /** What one run printed and returned. */
    private record CommandResult(int exitCode, String out, String err) {}

    private static CommandResult run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Runbook.execute(Clock.fixed(Instant.parse("2026-11-30T09:00:00Z"), ZoneOffset.UTC),
                new PrintWriter(out), new PrintWriter(err), args);
        return new CommandResult(code, out.toString(), err.toString());
    }

    @Test
    void theSampleBootstrapsToHealthyThenFailsOverToTheReplicaWithTheMostReplayedWal() {
        CommandResult result = run("sandbox");

        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
        assertThat(result.out()).containsSubsequence(
                "runbook sandbox: API server at http://",
                "postgres-cluster/samples/cluster.yaml: PostgresCluster demo/pg, with failoverDelay: 5s and without its backup schedule",
                "apply StatefulSet demo/pg  CREATED  (Keep the instances' StatefulSet)",
                "PostgresCluster demo/pg  phase=Healthy  ready=3/3",
                "== Healthy: pg-0 is the primary, pg-1 and pg-2 the replicas",
                "pg-0 50331648, pg-1 50331600, pg-2 50331640",
                "-- failover drill: pg-0, the primary, stops being ready",
                "phase=Degraded",
                "-- the clock jumps 6s ahead",
                "phase=FailingOver",
                "setStatus targetPrimary=pg-2  UPDATED  (Start a failover when the primary has been not ready for longer than failoverDelay)",
                "event Warning FailoverStarted: pg-0 has not been ready for ",
                "promoting pg-2, the ready replica with the most replayed WAL (50331640)",
                "label Pod demo/pg-0 postgres.runbook.dev/role=fenced  UPDATED  (Fence the old primary out of the read-write service)",
                "-- pg-2 sees it is status.targetPrimary with pg-0 fenced, promotes itself",
                "setStatus currentPrimary=pg-2  UPDATED",
                "event Normal PromotionCompleted: pg-2 is the primary; pg-0 is fenced  CREATED",
                "-- pg-0 is ready again",
                "phase=Healthy  ready=3/3",
                "label Pod demo/pg-0 postgres.runbook.dev/role=replica  UPDATED",
                "== Healthy again: pg-2 is the primary, pg-0 and pg-1 the replicas",
                "runbook sandbox: OK. PostgresCluster demo/pg bootstrapped to Healthy in ");
        assertThat(result.out()).containsOnlyOnce("FailoverStarted").containsOnlyOnce("PromotionCompleted")
                .doesNotContain("will retry", "failed:", "FAILED", "(timeline:");
        // Every timeline line starts with the time since the start.
        assertThat(result.out().lines().filter(l -> !l.startsWith("runbook sandbox:") && !l.startsWith(Timeline.INDENT)))
                .allMatch(l -> l.matches("\\+\\d+\\.\\ds +.*"));
    }

    @Test
    void aClusterThatDoesNotConvergeSaysWhatIsMissingAndExitsOne() {
        CommandResult result = run("sandbox", "--ready-after", "1h", "--timeout", "2s");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).contains(
                "runbook sandbox: gave up after 2s waiting for the cluster to bootstrap to Healthy",
                "PostgresCluster demo/pg: phase=Bootstrapping, readyInstances=0 of 3",
                "condition Ready=False Bootstrapping",
                "Pod pg-0: not ready");
        assertThat(result.out()).contains("apply StatefulSet demo/pg  CREATED").doesNotContain("runbook sandbox: OK");
    }

    @Test
    void aBundleOfAnotherKindIsRefused() {
        CommandResult result = run("sandbox", "--bundle", WEB_APP);

        assertThat(result.exitCode()).isEqualTo(RunbookCommand.BAD_INPUT);
        assertThat(result.err()).contains(WEB_APP + ": the sandbox runs a postgres-cluster bundle");
        assertThat(result.out()).isEmpty();
    }

    @Test
    void keepRunningLeavesTheApiServerUpWithAKubeconfigUntilStopped() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        AtomicInteger code = new AtomicInteger(-1);
        Thread command = new Thread(() -> code.set(Runbook.execute(Clock.systemUTC(), new PrintWriter(out),
                new PrintWriter(err), "sandbox", "--keep-running")), "sandbox-under-test");
        command.start();
        try {
            // The whole drill runs first; on a loaded machine it has taken 50 s, so the bound is generous.
            await().atMost(Duration.ofSeconds(180)).until(() -> out.toString().contains("Stop it with Ctrl-C."));
            Matcher kubeconfig = Pattern.compile("export KUBECONFIG=(\\S+)").matcher(out.toString());
            assertThat(kubeconfig.find()).as(out.toString()).isTrue();
            assertThat(out.toString()).contains("runbook sandbox: still running. The API server is at http://",
                    "kubectl get postgresclusters,statefulsets,pods,services -n demo");

            Config config = Config.fromKubeconfig(Files.readString(Path.of(kubeconfig.group(1))));
            assertThat(config.getNamespace()).isEqualTo("demo");
            try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
                GenericKubernetesResource pg = client.genericKubernetesResources("postgres.runbook.dev/v1alpha1", "PostgresCluster")
                        .inNamespace("demo").withName("pg").get();
                assertThat(pg.<String>get("status", "phase")).isEqualTo("Healthy");
                assertThat(pg.<String>get("status", "currentPrimary")).isEqualTo("pg-2");
                assertThat(client.pods().inNamespace("demo").list().getItems()).hasSize(3);
            }
        } finally {
            command.interrupt();
            command.join(Duration.ofSeconds(40).toMillis());
        }
        assertThat(command.isAlive()).isFalse();
        assertThat(code.get()).as(err.toString()).isZero();
    }
}
