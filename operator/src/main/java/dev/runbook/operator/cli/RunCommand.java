package dev.runbook.operator.cli;

import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.operator.controller.RunbookOperator;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code runbook run --bundle DIR... [--namespace NS...]}: the operator. Reconciles each bundle's
 * primary kind in the cluster that KUBECONFIG (or ~/.kube/config, or the pod's service account) names,
 * until the process is stopped. See docs/operations.md.
 */
@Command(name = "run", description = "Run the operator: reconcile each bundle's primary kind in the cluster "
        + "named by KUBECONFIG (or the in-cluster service account), until stopped.")
final class RunCommand implements Callable<Integer> {
    /** How long a stop waits for cycles in flight to finish. */
    static final long STOP_TIMEOUT_SECONDS = 30;
    /** Exit code when the operator cannot start (cluster unreachable, CRD missing, ...). */
    static final int CANNOT_START = 1;

    @Option(names = "--bundle", required = true, arity = "1..*", paramLabel = "DIR",
            description = "A bundle directory (it holds bundle.yaml); repeat or list several.")
    List<Path> bundles;

    @Option(names = "--namespace", arity = "1..*", paramLabel = "NS",
            description = "Watch only these namespaces (default: all).")
    List<String> namespaces = new ArrayList<>();

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        var err = spec.commandLine().getErr();
        return Failures.guard(err, () -> {
            List<CompiledBundle> compiled = new ArrayList<>();
            for (Path bundle : bundles) compiled.add(BundleArgument.compile(bundle));
            StopSignal signal = new StopSignal();
            try (KubernetesClient client = new KubernetesClientBuilder().build();
                 RunbookOperator operator = new RunbookOperator(client, compiled, new LinkedHashSet<>(namespaces),
                         Clock.systemUTC())) {
                try {
                    operator.start();
                } catch (RuntimeException e) {
                    err.println("runbook: the operator cannot start against " + client.getMasterUrl() + ": "
                            + rootMessage(e) + " (is the cluster reachable, and is each bundle's CRD installed?)");
                    return CANNOT_START;
                }
                String where = namespaces.isEmpty() ? "all namespaces" : "namespaces " + String.join(", ", namespaces);
                for (CompiledBundle bundle : compiled) {
                    out.println("runbook: reconciling " + bundle.spec().primary().kind() + " with bundle " + bundle
                            + " (" + bundle.spec().mode().name().toLowerCase(Locale.ROOT) + ") in " + where);
                }
                out.flush();
                signal.await();
            } finally {
                signal.done();
            }
            return RunbookCommand.OK;
        });
    }

    /**
     * The JVM's stop (SIGTERM, Ctrl-C): a shutdown hook releases {@link #await}, then waits until the
     * operator has been closed ({@link #done}), at most {@link #STOP_TIMEOUT_SECONDS}.
     */
    private static final class StopSignal {
        private final CountDownLatch stop = new CountDownLatch(1);
        private final CountDownLatch stopped = new CountDownLatch(1);

        StopSignal() {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                stop.countDown();
                try {
                    stopped.await(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "runbook-stop"));
        }

        void await() {
            try {
                stop.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void done() { stopped.countDown(); }
    }

    private static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
