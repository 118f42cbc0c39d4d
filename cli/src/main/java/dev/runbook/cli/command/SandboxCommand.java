package dev.runbook.cli.command;

import dev.runbook.operator.command.ExitCodes;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.operator.command.BundleArgument;
import dev.runbook.operator.command.Failures;
import dev.runbook.sandbox.Drill;
import dev.runbook.sandbox.DrillRunner;
import dev.runbook.sandbox.FailoverDrill;
import dev.runbook.sandbox.Sandbox;
import dev.runbook.rules.function.Durations;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code runbook sandbox}: a bundle at work with no cluster. An API server (the fabric8 mock), the
 * bundle's CRDs, simulated controllers and the operator, in this JVM; the bundle's drill plays on its
 * sample while a timeline is printed: postgres-cluster's failover drill, or the steps of the bundle's
 * {@code sandbox.yaml}. See docs/sandbox.md.
 */
@Command(name = "sandbox", description = "Run a bundle against an API server in this JVM (no cluster needed) and play "
        + "its drill on its sample, printing a timeline: postgres-cluster bootstraps and fails over; another bundle "
        + "plays the steps of its " + Drill.FILE + ".")
final class SandboxCommand implements Callable<Integer> {
    static final String DEFAULT_BUNDLE = "runbooks/postgres-cluster";
    /** How long the shutdown hook waits for the sandbox to close. */
    private static final long STOP_TIMEOUT_SECONDS = 30;
    /** Exit code when the cluster did not converge, or the sandbox could not start. */
    static final int NOT_CONVERGED = 1;

    @Option(names = "--bundle", paramLabel = "DIR",
            description = "The bundle to run: postgres-cluster (or an edited copy), or any bundle with a " + Drill.FILE
                    + " (default: " + DEFAULT_BUNDLE + ", found from the working directory or the runbook jar).")
    Path bundle;

    @Option(names = "--keep-running",
            description = "After the drill, leave the API server and the operator running, print how to reach them "
                    + "(a kubeconfig for kubectl), and wait until stopped (Ctrl-C).")
    boolean keepRunning;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "30s",
            description = "How long each stage may take to converge before the sandbox gives up with exit code 1 (default: ${DEFAULT-VALUE}).")
    String timeout;

    @Option(names = "--ready-after", paramLabel = "DURATION", defaultValue = "2s",
            description = "How long after its creation the simulated kubelet makes a pod ready (default: ${DEFAULT-VALUE}).")
    String readyAfter;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        return Failures.guard(err, () -> {
            Sandbox.Options options = new Sandbox.Options(duration("--ready-after", readyAfter),
                    duration("--timeout", timeout), Duration.ofSeconds(5));
            Path dir = bundle != null ? bundle : findDefaultBundle();
            CompiledBundle compiled = BundleArgument.compile(dir);
            Drill drill = Files.isRegularFile(Drill.fileOf(dir)) ? Drill.read(dir) : null;
            boolean failover = drill == null && FailoverDrill.KIND.equals(compiled.spec().primary().kind().kind());
            if (drill == null && !failover) {
                throw new IllegalArgumentException(dir + ": no drill for the sandbox: add " + Drill.fileOf(dir)
                        + " with the sample to apply and the steps to play (see docs/sandbox.md; runbooks/app-release/"
                        + Drill.FILE + " is one)");
            }
            Path sample = drill != null ? drill.sample() : dir.resolve(FailoverDrill.SAMPLE);
            try (Sandbox sandbox = new Sandbox(compiled, dir, sample, options)) {
                try {
                    sandbox.start(out);
                    if (drill != null) new DrillRunner(sandbox, drill).run(out);
                    else new FailoverDrill(sandbox).run(out);
                } catch (Sandbox.NotConvergedException e) {
                    out.flush();
                    err.println(e.getMessage());
                    return NOT_CONVERGED;
                } catch (IllegalArgumentException e) {
                    throw e;
                } catch (RuntimeException e) {
                    out.flush();
                    err.println("runbook sandbox: failed: " + e);
                    return NOT_CONVERGED;
                }
                if (keepRunning) {
                    Path kubeconfig = sandbox.writeKubeconfig();
                    out.println("runbook sandbox: still running. The API server is at " + sandbox.url() + "; for kubectl:");
                    out.println("  export KUBECONFIG=" + kubeconfig);
                    out.println("  kubectl get " + sandbox.kindsToGet() + " -n " + sandbox.namespace());
                    out.println("Stop it with Ctrl-C.");
                    out.flush();
                    awaitStop();
                }
            }
            return ExitCodes.OK;
        });
    }

    private static Duration duration(String option, String text) {
        try {
            return Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
        }
    }

    /** runbooks/postgres-cluster below the working directory or one of its parents, else below the jar's directory or one of its parents. */
    static Path findDefaultBundle() {
        List<Path> starts = new ArrayList<>();
        starts.add(Path.of("").toAbsolutePath());
        try {
            var source = SandboxCommand.class.getProtectionDomain().getCodeSource();
            if (source != null) starts.add(Path.of(source.getLocation().toURI()).toAbsolutePath());
        } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
            // no jar location: the working directory alone
        }
        for (Path start : starts) {
            for (Path dir = start; dir != null; dir = dir.getParent()) {
                Path candidate = dir.resolve(DEFAULT_BUNDLE);
                if (Files.isRegularFile(candidate.resolve("bundle.yaml"))) {
                    Path here = Path.of("").toAbsolutePath();
                    return candidate.startsWith(here) ? here.relativize(candidate) : candidate;
                }
            }
        }
        throw new IllegalArgumentException(DEFAULT_BUNDLE + ": not found in the working directory, the runbook jar's "
                + "directory or their parents; give the bundle with --bundle DIR");
    }

    /** Until the JVM is stopped (SIGTERM, Ctrl-C) or this thread is interrupted; then the sandbox is closed. */
    private static void awaitStop() {
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.countDown();
            try {
                stopped.await(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "runbook-sandbox-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            stop.await();
        } catch (InterruptedException e) {
            // stopped by whoever runs the command in-process: close as on Ctrl-C (the flag is not kept, so that
            // closing the operator is not cut short)
        } finally {
            // The sandbox holds nothing outside this JVM: the hook need not wait for it to close.
            stopped.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running
            }
        }
    }
}
