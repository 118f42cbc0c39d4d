package dev.runbook.cli.command;

import dev.runbook.operator.command.ExitCodes;
import dev.runbook.sandbox.Timeline;


import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code runbook sandbox}, run in-process as from the command line (from the module directory). */
class SandboxCommandTest {
    private static final String WEB_APP = "../operator/src/test/resources/bundles/web-app";
    private static final String APP_RELEASE = "../runbooks/app-release";
    /**
     * Each stage's wait in the drills that must succeed: the sandbox's 30 s default is for a person at a
     * terminal; a stage that takes seconds can take many times that on a loaded two-core CI machine.
     */
    private static final String PATIENT = "--timeout=2m";

    /** What one run printed and returned. */
    private record CommandResult(int exitCode, String out, String err) {}

    private static CommandResult run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = RunbookCommand.execute(Clock.fixed(Instant.parse("2026-11-30T09:00:00Z"), ZoneOffset.UTC),
                new PrintWriter(out), new PrintWriter(err), args);
        return new CommandResult(code, out.toString(), err.toString());
    }

    @Test
    void theSampleBootstrapsToHealthyThenFailsOverToTheReplicaWithTheMostReplayedWal() {
        CommandResult result = run("sandbox", PATIENT);

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
        // Each object is applied once, as on a real API server: the embedded one records the apply's
        // managedFields, so an unchanged object is not sent again (nor its status writes taken for an update).
        assertThat(result.out()).containsOnlyOnce("apply StatefulSet demo/pg").containsOnlyOnce("apply ConfigMap demo/pg-config")
                .containsOnlyOnce("apply Service demo/pg-rw");
        assertThat(result.out()).containsOnlyOnce("FailoverStarted").containsOnlyOnce("PromotionCompleted")
                .doesNotContain("will retry", "failed:", "FAILED", "(timeline:");
        // Every timeline line starts with the time since the start.
        assertThat(result.out().lines().filter(l -> !l.startsWith("runbook sandbox:") && !l.startsWith(Timeline.INDENT)))
                .allMatch(l -> l.matches("\\+\\d+\\.\\ds +.*"));
    }

    @Test
    void aClusterThatDoesNotConvergeSaysWhatIsMissingAndExitsOne() throws java.io.IOException {
        CommandResult result = run("sandbox", "--ready-after", "1h", "--timeout", "15s");

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).contains(
                "runbook sandbox: gave up after 15s waiting for the first ready instance to be chosen as the primary",
                "PostgresCluster demo/pg: phase=Bootstrapping, readyInstances=0 of 3",
                "condition Ready=False Bootstrapping: waiting for the first instance pg-0 to be ready",
                "Pod pg-0: not ready");
        // docs/sandbox.md shows this run's stderr: every line of its example is printed.
        String page = Files.readString(Path.of("../docs/sandbox.md"));
        String shown = page.substring(page.indexOf("runbook sandbox: gave up after"));
        shown = shown.substring(0, shown.indexOf("\n```"));
        assertThat(result.err().lines().map(String::strip).toList()).containsAll(shown.lines().map(String::strip).toList());
        assertThat(result.out()).contains("apply StatefulSet demo/pg  CREATED").doesNotContain("runbook sandbox: OK");
    }

    @Test
    void appReleasePlaysItsDrillFromFirstReleaseThroughCanaryPromotionToCleanupOnDelete() {
        CommandResult result = run("sandbox", "--bundle", APP_RELEASE, PATIENT);

        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
        assertThat(result.out()).containsSubsequence(
                "runbook sandbox: bundle app-release@",
                "runbooks/app-release/samples/release.yaml: AppRelease demo/shop; the drill is ",
                "runbooks/app-release/sandbox.yaml (13 steps)",
                "apply Job demo/shop-migrate-1-0-0  CREATED  (Run the migration of a new version)",
                "-- the migration Job of 1.0.0 runs; it succeeds",
                "setStatus currentVersion=1.0.0  UPDATED  (Release the first version once it is migrated)",
                "apply Deployment demo/shop  CREATED  (Keep the stable Deployment at the current version)",
                "AppRelease demo/shop  phase=Available  ready=2/2",
                "== Available: 1.0.0 serves from 2 ready pods",
                "-- release 1.1.0: spec.version changes",
                "apply Job demo/shop-migrate-1-1-0  CREATED",
                "-- the migration Job of 1.1.0 succeeds",
                "apply Deployment demo/shop-canary  CREATED  (Start a canary of a migrated new version)",
                "== the canary shop-canary runs 1.1.0 on 1 available pod",
                "-- the clock jumps 120s ahead",
                "setStatus currentVersion=1.1.0  UPDATED  (Promote the canary once it has been available for promoteAfter)",
                // The sandbox's clock is real time plus the drill's jumps: a cycle that runs late on a
                // busy machine sees a few more seconds than the 120s jump (checked below).
                "event Normal CanaryPromoted: version 1.1.0 has been available as a canary for ",
                "delete Deployment demo/shop-canary  DELETED  (Retire the canary once the stable Deployment runs its version)",
                "== Available: 1.1.0 promoted",
                "-- kubectl delete appreleases shop",
                "phase=Deleting",
                "apply Job demo/shop-cleanup  CREATED  (Run the cleanup Job when the release is deleted)",
                "-- the cleanup Job succeeds",
                "AppRelease demo/shop  gone",
                "finishCleanup AppRelease demo/shop  UPDATED  (Release the finalizer once the cleanup Job succeeded)",
                "== shop is gone",
                "runbook sandbox: OK. AppRelease demo/shop released 1.0.0, promoted 1.1.0 through its migration and canary, "
                        + "and cleaned up on delete in ");
        Matcher promoted = Pattern
                .compile("available as a canary for (\\d+)s").matcher(result.out());
        assertThat(promoted.find()).as("the promotion event names how long the canary was available").isTrue();
        assertThat(Integer.parseInt(promoted.group(1))).as("seconds the canary was available when promoted")
                .isBetween(120, 180);
        assertThat(result.out()).containsOnlyOnce("CanaryPromoted").containsOnlyOnce("CleanupFinished")
                .doesNotContain("will retry", "failed:", "FAILED", "(timeline:", "CanaryRolledBack");
        assertThat(result.out().lines().filter(l -> !l.startsWith("runbook sandbox:") && !l.startsWith(Timeline.INDENT)))
                .allMatch(l -> l.matches("\\+\\d+\\.\\ds +.*"));
    }

    /** The command the cli module adds answers --help as the operator's commands do: its usage, exit 0. */
    @Test
    void helpPrintsTheUsage() {
        CommandResult result = run("sandbox", "--help");

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).startsWith("Usage: runbook sandbox ").contains("-h, --help");
    }

    @Test
    void aBundleWithoutADrillIsToldWhichFileToAdd() {
        CommandResult result = run("sandbox", "--bundle", WEB_APP);

        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains(WEB_APP + ": no drill for the sandbox: add " + WEB_APP + "/sandbox.yaml",
                "see docs/sandbox.md");
        assertThat(result.out()).isEmpty();
    }

    @Test
    void aBrokenDrillNamesTheFileAndTheStepBeforeAnythingStarts(@TempDir Path dir) throws Exception {
        Path bundle = dir.resolve("app-release");
        copy(Path.of(APP_RELEASE), bundle);
        Files.writeString(bundle.resolve("sandbox.yaml"), """
                sample: samples/release.yaml
                steps:
                  - await: {status.phase: Available}
                  - advance: soon
                """);

        CommandResult broken = run("sandbox", "--bundle", bundle.toString());

        assertThat(broken.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(broken.err()).contains(bundle.resolve("sandbox.yaml") + ": steps[1].advance: a duration such as 2m");
        assertThat(broken.out()).isEmpty();

        Files.writeString(bundle.resolve("sandbox.yaml"), """
                sample: samples/release.yaml
                steps:
                  - wait: {status.phase: Available}
                """);
        CommandResult unknown = run("sandbox", "--bundle", bundle.toString());

        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(unknown.err()).contains(bundle.resolve("sandbox.yaml") + ": steps[0]: unknown key wait; a step has one of [advance, await,");
    }

    private static void copy(Path from, Path to) throws java.io.IOException {
        try (var files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) Files.createDirectories(target);
                else Files.copy(file, target);
            }
        }
    }

    @Test
    void keepRunningLeavesTheApiServerUpWithAKubeconfigUntilStopped() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        AtomicInteger code = new AtomicInteger(-1);
        Thread command = new Thread(() -> code.set(RunbookCommand.execute(Clock.systemUTC(), new PrintWriter(out),
                new PrintWriter(err), "sandbox", "--keep-running", PATIENT)), "sandbox-under-test");
        command.start();
        try {
            // The whole drill runs first; on a loaded machine it has taken 50 s, so the bound is generous.
            await().atMost(Duration.ofSeconds(180)).until(() -> out.toString().contains("Stop it with Ctrl-C."));
            Matcher kubeconfig = Pattern.compile("export KUBECONFIG=(\\S+)").matcher(out.toString());
            assertThat(kubeconfig.find()).as(out.toString()).isTrue();
            assertThat(out.toString()).contains("runbook sandbox: still running. The API server is at http://",
                    "kubectl get postgresclusters,pods,jobs,statefulsets,");

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
