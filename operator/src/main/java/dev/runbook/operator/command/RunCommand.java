package dev.runbook.operator.command;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.decide.DecidingBundle;
import dev.runbook.engine.policy.Isolation;
import dev.runbook.operator.controller.BundleRefusedException;
import dev.runbook.operator.isolation.IsolatedBundle;
import dev.runbook.operator.isolation.WorkerCheck;
import dev.runbook.operator.isolation.WorkerLauncher;
import dev.runbook.engine.compile.CompiledBundleCache;
import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.controller.ReconcileThreads;
import dev.runbook.operator.admission.BundleWebhook;
import dev.runbook.operator.cycle.CycleListener;
import dev.runbook.operator.shard.CycleJournal;
import dev.runbook.operator.error.RootCause;
import dev.runbook.operator.history.DecisionHistory;
import dev.runbook.operator.kube.Kubeconfig;
import dev.runbook.operator.kube.OperatorNamespace;
import dev.runbook.operator.leader.LeaderElection;
import dev.runbook.operator.metrics.OperatorEndpoints;
import dev.runbook.operator.metrics.OperatorMetrics;
import dev.runbook.operator.runtime.OperatorRuntime;
import dev.runbook.operator.shard.Membership;
import dev.runbook.operator.shard.ShardLabels;
import dev.runbook.operator.shard.ShardingLoop;
import io.fabric8.kubernetes.client.KubernetesClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code runbook run}: the operator. Reconciles each bundle's primary kind in the cluster that
 * KUBECONFIG (or ~/.kube/config, or the pod's service account) names, until the process is stopped;
 * optionally loads bundles from ConfigMaps (hot reload), holds a Lease before acting (leader election),
 * and serves metrics and health over HTTP. See docs/install.md and docs/operations.md.
 */
@Command(name = "run", description = "Run the operator: reconcile each bundle's primary kind in the cluster "
        + "named by KUBECONFIG (or the in-cluster service account), until stopped.")
public final class RunCommand implements Callable<Integer> {
    /** How long a stop waits for cycles in flight to finish. */
    static final long STOP_TIMEOUT_SECONDS = 30;
    /** Exit code when the operator cannot start (cluster unreachable, CRD missing, ...). */
    static final int CANNOT_START = 1;
    /** The logger level of the operator's own lines while it runs (other commands print only warnings). */
    static final String LOG_LEVEL_PROPERTY = "org.slf4j.simpleLogger.log.dev.runbook";

    @Option(names = "--bundle", arity = "1..*", paramLabel = "DIR",
            description = "A bundle directory (it holds bundle.yaml); repeat or list several.")
    List<Path> bundles = new ArrayList<>();

    @Option(names = "--bundle-configmaps",
            description = "Also run the bundles of the ConfigMaps labelled runbook.dev/bundle in the operator's namespace, "
                    + "reloading each one when it changes (write them with `runbook pack`).")
    boolean bundleConfigMaps;

    @Option(names = "--namespace", arity = "1..*", paramLabel = "NS",
            description = "Watch only these namespaces (default: all).")
    List<String> namespaces = new ArrayList<>();

    @Option(names = "--leader-election",
            description = "Act only while holding the Lease, so that several replicas can run.")
    boolean leaderElection;

    @Option(names = "--lease", paramLabel = "NAME", defaultValue = "runbook-operator",
            description = "The Lease's name (default: ${DEFAULT-VALUE}).")
    String lease;

    @Option(names = "--http-port", paramLabel = "PORT", defaultValue = "8080",
            description = "Port of /metrics, /healthz and /readyz (default: ${DEFAULT-VALUE}; 0 picks a free one; -1: none).")
    int httpPort;

    @Option(names = "--webhook-port", paramLabel = "PORT", defaultValue = "-1",
            description = "Serve the validating webhook for bundle ConfigMaps over HTTPS on this port "
                    + "(default: ${DEFAULT-VALUE}, none; deploy/ uses 9443). See docs/shipping.md#refusal-at-apply-time-the-admission-webhook.")
    int webhookPort;

    @Option(names = "--webhook-name", arity = "1..*", paramLabel = "NAME",
            description = "The DNS names (or IP addresses) the webhook's certificate names "
                    + "(default: runbook-operator-webhook.<operator namespace>.svc).")
    List<String> webhookNames = new ArrayList<>();

    @Option(names = "--reconcile-threads", paramLabel = "N",
            description = "How many cycles each bundle's controller runs at once (default: $" + ReconcileThreads.VARIABLE
                    + ", else " + ReconcileThreads.PER_PROCESSOR + " per processor the JVM may use, at least "
                    + ReconcileThreads.MINIMUM + ").")
    Integer reconcileThreads;

    /** Where {@code $RUNBOOK_RECONCILE_THREADS}, {@code $RUNBOOK_SHARDS}, {@code $POD_NAME} are read (the process's environment; tests give their own). */
    Map<String, String> environment = System.getenv();

    @Option(names = "--decision-history", paramLabel = "K", defaultValue = "" + DecisionHistory.DEFAULT_PER_PRIMARY,
            description = "Keep each primary's last K decisions with their traces, served at /decisions/NAMESPACE/NAME on "
                    + "--http-port for `runbook why --history` (default: ${DEFAULT-VALUE}; 0 keeps none). See docs/why.md.")
    int decisionHistory;

    @Option(names = "--cycle-journal", paramLabel = "FILE",
            description = "A diagnostic, with --shards: append each cycle this replica runs (member, primary, start, end) "
                    + "to FILE as a JSON line, to check that no two replicas acted on one primary at once. See docs/sharding.md.")
    Path cycleJournal;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Mixin
    PolicyOption policyOption = new PolicyOption();

    @Mixin
    ShardsOption shardsOption = new ShardsOption();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        var err = spec.commandLine().getErr();
        if (bundles.isEmpty() && !bundleConfigMaps) {
            err.println("runbook: give at least one --bundle DIR, or --bundle-configmaps to run the bundles shipped as ConfigMaps");
            return ExitCodes.BAD_INPUT;
        }
        ReconcileThreads.Choice threads = ReconcileThreads.chosen(reconcileThreads, environment);
        if (threads.problem() != null) {
            err.println("runbook: " + threads.problem());
            return ExitCodes.BAD_INPUT;
        }
        ShardsOption.Choice shards = shardsOption.chosen(environment);
        if (shards.problem() != null) {
            err.println("runbook: " + shards.problem());
            return ExitCodes.BAD_INPUT;
        }
        if (decisionHistory < 0) {
            err.println("runbook: --decision-history " + decisionHistory + ": give how many decisions to keep per primary, 0 for none");
            return ExitCodes.BAD_INPUT;
        }
        OperatorNamespace own = OperatorNamespace.resolve(policyOption.operatorNamespace, System.getenv(),
                OperatorNamespace.SERVICE_ACCOUNT_NAMESPACE);
        if (cycleJournal != null && !shards.sharded()) {
            err.println("runbook: --cycle-journal records a shard member's cycles: give --shards too");
            return ExitCodes.BAD_INPUT;
        }
        String ownProblem = needsOwnNamespace(own, shards.sharded());
        if (ownProblem != null) {
            err.println("runbook: " + ownProblem);
            return ExitCodes.BAD_INPUT;
        }
        if (System.getProperty(LOG_LEVEL_PROPERTY) == null) System.setProperty(LOG_LEVEL_PROPERTY, "info");
        return Failures.guard(err, () -> {
            Policy policy = policyOption.policy();
            WorkerCheck.requireWorkers(policy.isolation(), bundleConfigMaps, threads.threads());
            List<DecidingBundle> compiled = new ArrayList<>();
            List<String> loadedLines = new ArrayList<>();
            for (Path bundle : bundles) {
                long loading = System.nanoTime();
                if (policy.isolation().images() == Isolation.Trust.ISOLATED) {
                    IsolatedBundle isolated;
                    try {
                        var source = BundleLoader.load(bundle);
                        isolated = IsolatedBundle.load(source, source.files(), policy,
                                WorkerLauncher.of(policy.isolation(), threads.threads()), false);
                    } catch (BundleRefusedException e) {
                        throw new IllegalArgumentException(e.describe(), e);
                    }
                    compiled.add(isolated);
                    loadedLines.add("runbook: bundle " + isolated + " compiled in a worker process in " + since(loading));
                    continue;
                }
                CompiledBundleCache.Loaded loaded = BundleArgument.loadCompilingApart(bundle);
                compiled.add(loaded.bundle());
                // Where start-up time goes (docs/performance-log.md): a compile costs seconds of CPU, a cached copy a second.
                loadedLines.add("runbook: bundle " + loaded.bundle() + (loaded.fromCache()
                        ? " read from the compiled-bundle cache in " : " compiled in ") + since(loading));
            }
            // Printed once every bundle loaded: a bundle that does not compile leaves nothing on standard output.
            loadedLines.forEach(out::println);
            out.flush();
            StopSignal signal = new StopSignal();
            try (KubernetesClient client = Kubeconfig.connect(System.getenv());
                 OperatorMetrics metrics = OperatorMetrics.create()) {
                String home = own.name().orElse(null);
                Policy enforced = home == null ? policy : policy.reserving(home);
                String identity = identity();
                // Sharded, the leader Lease is held too: its holder assigns the primaries to the members.
                boolean holdsLeaderLease = leaderElection || shards.sharded();
                var settings = new OperatorRuntime.Settings(compiled, watched(policy),
                        bundleConfigMaps ? home : null,
                        holdsLeaderLease ? new OperatorRuntime.Lease(home, lease, identity, LeaderElection.Timing.DEFAULT,
                                LeaderElection.leaseClient(client, LeaderElection.Timing.DEFAULT)) : null,
                        enforced, home == null ? null : new OperatorRuntime.Presence(home, identity), threads.threads(),
                        shards.sharded() ? new OperatorRuntime.Shards(shards.member(), ShardingLoop.Timing.DEFAULT) : null);
                DecisionHistory history = decisionHistory == 0 ? null : new DecisionHistory(decisionHistory, Clock.systemUTC());
                try (CycleJournal journal = cycleJournal == null ? null : CycleJournal.open(cycleJournal, shards.member(), Clock.systemUTC());
                     OperatorRuntime runtime = new OperatorRuntime(client, settings, Clock.systemUTC(), metrics,
                        CycleListener.both(history == null ? CycleListener.NONE : history, journal == null ? CycleListener.NONE : journal));
                     OperatorEndpoints endpoints = httpPort < 0 ? null : OperatorEndpoints.start(new InetSocketAddress(httpPort),
                             metrics::scrape, runtime::notAlive, runtime::notReady, history == null ? null : history::json);
                     BundleWebhook webhook = webhookPort < 0 ? null : BundleWebhook.serve(client, home, webhookSettings(home),
                             Clock.systemUTC(), runtime.verdicts())) {
                    if (webhook != null) {
                        metrics.webhookServing(true);
                        // Every member answers the webhook at create: the Service sends each call to any of them.
                        runtime.shardAdmission().ifPresent(admission -> webhook.serveShards(admission, BundleWebhook.SHARD_CONFIGURATION));
                    }
                    long starting = System.nanoTime();
                    try {
                        runtime.start();
                    } catch (RuntimeException e) {
                        err.println("runbook: the operator cannot start against " + client.getMasterUrl() + ": "
                                + RootCause.message(e) + " (is the cluster reachable, and is each bundle's CRD installed?)");
                        return CANNOT_START;
                    }
                    if (!holdsLeaderLease) out.println("runbook: controllers started, informers listed, in " + since(starting));
                    describe(out, compiled, own, endpoints, settings.namespaces(), policy, threads.threads(), shards);
                    runtime.failure().whenComplete((ignored, error) -> signal.release());
                    signal.await();
                    if (runtime.failure().isCompletedExceptionally()) {
                        err.println("runbook: leading, but the operator cannot start against " + client.getMasterUrl()
                                + " (is each bundle's CRD installed?)");
                        return CANNOT_START;
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("the HTTP port " + httpPort + " or the webhook port " + webhookPort
                            + " cannot be opened: " + e.getMessage(), e);
                }
            } finally {
                signal.done();
            }
            return ExitCodes.OK;
        });
    }

    private static String since(long nanoTime) {
        return String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - nanoTime) / 1e9);
    }

    /**
     * The namespaces to watch: those given with --namespace; else, when the policy lists every bundle's
     * namespaces, their union (the RBAC deploy/ derives from the policy grants no more); else all.
     */
    private Set<String> watched(Policy policy) {
        if (!namespaces.isEmpty()) return new LinkedHashSet<>(namespaces);
        return policy.watchedNamespaces().orElse(Set.of());
    }

    private void describe(java.io.PrintWriter out, List<DecidingBundle> compiled, OperatorNamespace own,
                          OperatorEndpoints endpoints, Set<String> watched, Policy policy, int threads, ShardsOption.Choice shards) {
        String home = own.name().orElse(null);
        String where = watched.isEmpty() ? "all namespaces" : "namespaces " + String.join(", ", watched);
        for (DecidingBundle bundle : compiled) {
            out.println("runbook: reconciling " + bundle.spec().primary().kind() + " with bundle " + bundle
                    + " (" + bundle.spec().mode().name().toLowerCase(Locale.ROOT) + (bundle.isolated() ? ", in a worker process" : "")
                    + ") in " + where + ", " + threads + (threads == 1 ? " cycle" : " cycles") + " at once");
        }
        if (bundleConfigMaps) {
            out.println("runbook: running the bundles of ConfigMaps labelled runbook.dev/bundle in namespace " + home
                    + ", reloading on change");
        }
        out.println("runbook: checking every plan against " + policy.source() + " (docs/security.md)");
        out.println(home == null
                ? "runbook: no namespace of its own: not in a pod, and no --operator-namespace (docs/install.md#its-own-namespace)"
                : "runbook: its own namespace is " + home + " (" + own.source() + "), where no bundle acts");
        if (policy.isolation().images() == Isolation.Trust.ISOLATED
                || (bundleConfigMaps && policy.isolation().configMaps() == Isolation.Trust.ISOLATED)) {
            out.println("runbook: bundles from ConfigMaps run " + policy.isolation().configMaps().word + ", from images "
                    + policy.isolation().images().word + "; workers: " + policy.isolation().workerWord());
        }
        if (shards.sharded()) {
            out.println("runbook: shard member " + shards.member() + ": acting on the primaries labelled "
                    + ShardLabels.selectorOf(shards.member()) + " while holding lease " + home + "/"
                    + Membership.leaseName(shards.member()) + "; assigning them to the members while holding lease "
                    + home + "/" + lease + " (docs/sharding.md)");
        } else if (leaderElection) {
            out.println("runbook: acting only while holding lease " + home + "/" + lease);
        }
        if (endpoints != null) {
            out.println("runbook: metrics and health on http://localhost:" + endpoints.port() + "/metrics, /healthz, /readyz"
                    + (decisionHistory > 0 ? ", the last " + decisionHistory + " decisions of each primary on /decisions/NAMESPACE/NAME" : ""));
        }
        out.flush();
    }

    private BundleWebhook.Settings webhookSettings(String home) {
        List<String> names = webhookNames.isEmpty() ? List.of(BundleWebhook.Settings.SERVICE + "." + home + ".svc") : webhookNames;
        return new BundleWebhook.Settings(new InetSocketAddress(webhookPort), names, BundleWebhook.Settings.CONFIGURATION,
                BundleWebhook.Settings.SECRET, BundleWebhook.Settings.BUDGET);
    }

    /** Why the options given need an own namespace that {@code own} does not have; null when they do not. */
    private String needsOwnNamespace(OperatorNamespace own, boolean sharded) {
        if (sharded) return own.missingFor("--shards");
        if (bundleConfigMaps) return own.missingFor("--bundle-configmaps");
        if (leaderElection) return own.missingFor("--leader-election");
        if (webhookPort >= 0) return own.missingFor("--webhook-port");
        return null;
    }

    /** The pod's name (HOSTNAME in a pod), which names the Lease's holder; unique per process anyway. */
    private static String identity() {
        String host = System.getenv("HOSTNAME");
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        return (host == null || host.isBlank() ? "runbook" : host) + "-" + suffix;
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

        void release() { stop.countDown(); }

        void await() {
            try {
                stop.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void done() { stopped.countDown(); }
    }
}
