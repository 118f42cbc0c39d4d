package dev.runbook.operator.isolation;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.containment.ContainmentLimits;
import dev.runbook.engine.containment.FirstLine;
import dev.runbook.engine.containment.RuleContainmentException;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.policy.Policy;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.operator.testkit.ProjectFiles;
import dev.runbook.operator.error.Reasons;
import dev.runbook.operator.error.TemporaryException;
import dev.runbook.operator.reload.BundleConfigMaps;
import dev.runbook.rules.action.SetStatus;
import dev.runbook.rules.fact.Primary;
import dev.runbook.operator.testkit.NeedsSandbox;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * The process boundary holds with the first-line checks off (a test build's switch): rules that read
 * the operator's credentials and files, write files, start processes, open connections, look for the
 * operator's processes and threads, exit, sleep for ever, spin in a thread or allocate without bound run
 * in a sandboxed worker, and reach nothing of the operator's. The same probe run in the operator's own
 * process reaches all of it: the boundary is what holds, not the probe that fails.
 */
@NeedsSandbox
class WorkerEscapeTest {
    static final Path ESCAPE = ProjectFiles.of("operator/src/test/resources/bundles/escape");
    /** A short cycle deadline, so that the outside bound of a cycle is 4 x 1 s + 10 s. */
    static final Policy POLICY = new Policy(Policy.DEFAULT.defaults(), Map.of(), Policy.SYSTEM_NAMESPACES,
            new ContainmentLimits(Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(10), 64L << 20), "a test policy");
    static final String SECRET = "SECRET-" + UUID.randomUUID();

    static Path credentials;
    final List<IsolatedBundle> started = new ArrayList<>();

    @BeforeAll
    static void firstLineChecksOffAndCredentialsInPlain() throws IOException {
        System.setProperty(FirstLine.PROPERTY, "off");
        // The operator's credentials, readable by any user: only the sandbox's view of the files keeps them out.
        credentials = Files.createDirectories(ProjectFiles.of("operator/target").resolve("escape-" + UUID.randomUUID()));
        Files.setPosixFilePermissions(credentials, PosixFilePermissions.fromString("rwxrwxrwx"));
        for (String name : List.of("token", "kubeconfig")) {
            Path file = Files.writeString(credentials.resolve(name), SECRET + " " + name);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        }
    }

    @AfterAll
    static void firstLineChecksOn() {
        System.clearProperty(FirstLine.PROPERTY);
    }

    @AfterEach
    void stopWorkers() {
        started.forEach(IsolatedBundle::close);
    }

    @Test
    void withTheChecksOnTheProbeIsRefusedAtItsFirstLine() {
        System.clearProperty(FirstLine.PROPERTY);
        try {
            var refusal = catchThrowableOfType(InvalidInputException.class, () -> BundleCompiler.compile(BundleLoader.load(ESCAPE.resolve("probe"))));
            assertThat(refusal.getProblems()).anySatisfy(p -> assertThat(p.toString()).startsWith("rules/probe.drl:"));
        } finally {
            System.setProperty(FirstLine.PROPERTY, "off");
        }
    }

    @Test
    void aProbeInTheWorkerReachesNoCredentialFileProcessThreadOrConnectionOfTheOperators() throws Exception {
        try (ServerSocket apiServer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread operatorThread = operatorThread();
            Primary primary = probeTargets(apiServer.getLocalPort());

            List<String> report = report(load("probe").decide(observation(primary), POLICY));

            assertThat(String.join("\n", report)).doesNotContain(SECRET);
            assertThat(report).filteredOn(line -> line.startsWith("read ")).allSatisfy(line -> assertThat(line)
                    .contains("failed: java.nio.file.NoSuchFileException"));
            assertThat(report).filteredOn(line -> line.startsWith("write ") || line.startsWith("exec ") || line.startsWith("connect "))
                    .hasSize(3).allSatisfy(line -> assertThat(line).contains("failed: "));
            assertThat(credentials.resolve("written")).doesNotExist();
            assertThat(credentials.resolve("executed")).doesNotExist();
            assertNoConnection(apiServer);
            // The working directory bubblewrap sets, and the allocator's arena count: nothing of the operator's environment.
            assertThat(report).contains("environment: {MALLOC_ARENA_MAX=2, PWD=/tmp}", "user.home: /nonexistent");
            // Its own pid namespace: bubblewrap's init and the worker's JVM.
            assertThat(report).anySatisfy(line -> assertThat(line).matches("processes: [12]"));
            assertThat(report).anySatisfy(line -> assertThat(line).startsWith("threads: ").doesNotContain(operatorThread.getName()));
            operatorThread.interrupt();
        }
    }

    @Test
    void theSameProbeInTheOperatorsOwnProcessReachesAllOfIt() throws Exception {
        try (ServerSocket apiServer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            CompiledBundle inProcess = BundleCompiler.compile(BundleLoader.load(ESCAPE.resolve("probe")));

            List<String> report = report(inProcess.decide(observation(probeTargets(apiServer.getLocalPort())), POLICY));

            assertThat(report).contains("read " + credentials.resolve("token") + ": " + SECRET + " token",
                    "write " + credentials.resolve("written") + ": written",
                    "connect 127.0.0.1:" + apiServer.getLocalPort() + ": connected");
            assertThat(credentials.resolve("written")).exists();
            Files.delete(credentials.resolve("written"));
        }
    }

    @Test
    void aRuleThatExitsEndsItsWorkerOnlyAndAnotherBundlesWorkerDecidesOn() {
        IsolatedBundle exiting = load("exit");
        IsolatedBundle other = load("probe");

        assertThatThrownBy(() -> exiting.decide(observation(webApp(Map.of())), POLICY))
                .isInstanceOfSatisfying(TemporaryException.class, e -> {
                    assertThat(e.failure().reason()).isEqualTo(Reasons.WORKER_STOPPED);
                    assertThat(e.getMessage()).contains("it exited").contains("exit status 3");
                });
        assertThat(report(other.decide(observation(webApp(Map.of())), POLICY))).isNotEmpty();
        // Started again only after a backoff: a bundle that kills its worker every cycle costs a compile now and then.
        assertThatThrownBy(() -> exiting.decide(observation(webApp(Map.of())), POLICY))
                .isInstanceOf(TemporaryException.class).hasMessageContaining("a new one starts in");
    }

    @Test
    void aRuleThatSleepsForEverIsKilledAtTheCyclesOutsideBound() {
        IsolatedBundle sleeping = load("sleep");

        assertThatThrownBy(() -> sleeping.decide(observation(webApp(Map.of())), POLICY))
                .isInstanceOfSatisfying(TemporaryException.class, e -> assertThat(e.failure().reason()).isEqualTo(Reasons.WORKER_STOPPED))
                .hasMessageContaining("ran past its bound of 14 s and was killed");
    }

    /** Its memory is the worker's heap: the worker's budget stops the rule, or the worker dies. */
    @Test
    void aRuleThatAllocatesWithoutBoundIsStoppedInItsWorker() {
        IsolatedBundle hog = load("hog");

        assertThatThrownBy(() -> hog.decide(observation(webApp(Map.of())), POLICY)).satisfiesAnyOf(
                e -> assertThat(e).isInstanceOf(RuleContainmentException.class).hasMessageContaining("exceeded the memory a cycle may use"),
                e -> assertThat(e).isInstanceOfSatisfying(TemporaryException.class,
                        t -> assertThat(t.failure().reason()).isEqualTo(Reasons.WORKER_STOPPED)));
    }

    @Test
    void aThreadLeftSpinningAfterItsCycleGetsItsWorkerKilled() {
        IsolatedBundle spinner = load("spin");

        Decision decided = spinner.decide(observation(webApp(Map.of())), POLICY);

        assertThat(decided.firedRules()).containsExactly("Spin in a thread");
        await().atMost(Duration.ofSeconds(90)).until(() -> spinner.workerDeath() != null);
        assertThat(spinner.workerDeath()).contains("without a request to work on");
    }

    /** A template stopped in its worker is named as in the operator's own process, with the rule that applied it. */
    @Test
    void aTemplateStoppedInItsWorkerIsNamedWithItsRule() {
        IsolatedBundle looping = load(ProjectFiles.of("engine/src/test/resources/bundles/contained/template-nests-loops"));
        Primary store = new Primary(Map.of("apiVersion", "example.runbook.dev/v1", "kind", "Store",
                "metadata", Map.of("name", "shop", "namespace", "demo", "uid", "u-2"), "spec", Map.of()));

        RuleContainmentException stopped = catchThrowableOfType(RuleContainmentException.class, () -> looping.decide(observation(store), POLICY));

        // Its deadline or the memory its loops' output takes, whichever it reaches first on this machine.
        assertThat(stopped).hasMessageStartingWith("template config.yaml (applied by rule 'Apply the configuration') exceeded ");
        assertThat(stopped.template()).isEqualTo("config.yaml");
        assertThat(stopped.rule()).isEqualTo("Apply the configuration");
    }

    private IsolatedBundle load(String name) {
        return load(ESCAPE.resolve(name));
    }

    private IsolatedBundle load(Path directory) {
        IsolatedBundle bundle = IsolatedBundle.load(BundleLoader.load(directory), BundleConfigMaps.files(BundleConfigMaps.pack(directory)),
                POLICY, WorkerLauncher.of(POLICY.isolation(), 2), false);
        started.add(bundle);
        return bundle;
    }

    /** What the probe should try: the credentials, the test process's environment, files to write, a port to reach. */
    private static Primary probeTargets(int port) {
        List<String> read = new ArrayList<>(List.of(credentials.resolve("token").toString(), credentials.resolve("kubeconfig").toString(),
                "/proc/" + ProcessHandle.current().pid() + "/environ", "/var/run/secrets/kubernetes.io/serviceaccount/token",
                System.getProperty("user.home") + "/.kube/config"));
        if (System.getenv("KUBECONFIG") != null) read.add(System.getenv("KUBECONFIG"));
        return webApp(Map.of("read", read, "write", List.of(credentials.resolve("written").toString()),
                "exec", List.of(credentials.resolve("executed").toString()), "connect", List.of("127.0.0.1:" + port)));
    }

    private static Primary webApp(Map<String, Object> spec) {
        return new Primary(Map.of("apiVersion", "test.runbook.dev/v1", "kind", "WebApp",
                "metadata", Map.of("name", "shop", "namespace", "demo", "uid", "u-1"), "spec", spec));
    }

    private static Observation observation(Primary primary) {
        return new Observation(primary, List.of(), Instant.parse("2026-11-30T09:00:00Z"));
    }

    @SuppressWarnings("unchecked")
    private static List<String> report(Decision decision) {
        return decision.actions().stream().map(p -> p.action()).filter(SetStatus.class::isInstance).map(SetStatus.class::cast)
                .filter(s -> s.getPath().equals("report")).findFirst().map(s -> (List<String>) s.getValue()).orElseThrow();
    }

    /** A thread of this process, the operator's, with a name no other process has. */
    private static Thread operatorThread() {
        CountDownLatch never = new CountDownLatch(1);
        Thread thread = new Thread(() -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "operator-only-" + UUID.randomUUID());
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void assertNoConnection(ServerSocket apiServer) throws IOException {
        apiServer.setSoTimeout(200);
        assertThatThrownBy(apiServer::accept).isInstanceOf(SocketTimeoutException.class);
    }
}
