package dev.runbook.operator.runtime;

import dev.runbook.operator.concurrent.DaemonThreads;
import dev.runbook.engine.decide.DecidingBundle;
import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.controller.ReconcileThreads;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.cycle.CycleListener;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.rules.fact.Primary;
import dev.runbook.operator.health.ApiServerProbe;
import dev.runbook.operator.health.CycleDeadlines;
import dev.runbook.operator.health.DeadlineOverruns;
import dev.runbook.operator.health.DeadlineReport;
import dev.runbook.operator.health.Heartbeat;
import dev.runbook.operator.health.OperatorPresence;
import dev.runbook.operator.health.StuckDecisions;
import dev.runbook.operator.isolation.WorkerBounds;
import dev.runbook.operator.leader.LeaderElection;
import dev.runbook.operator.metrics.OperatorMetrics;
import dev.runbook.operator.reload.BundleReloader;
import dev.runbook.operator.reload.BundleVetting;
import dev.runbook.operator.reload.SharedVerdicts;
import io.fabric8.kubernetes.client.ConfigBuilder;
import dev.runbook.operator.reload.LastAccepted;
import dev.runbook.operator.admission.ShardAdmission;
import dev.runbook.operator.shard.Membership;
import dev.runbook.operator.shard.ShardLabels;
import dev.runbook.operator.shard.ShardingLoop;
import io.fabric8.kubernetes.client.KubernetesClient;
import dev.runbook.operator.kube.Kubeconfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Everything {@code runbook run} runs, put together: the controllers of the given bundles, the reloader
 * of bundle ConfigMaps, metrics, and, with leader election, acting only while this replica leads. A
 * replica that stops leading stops its controllers and its reloader; when it leads again it starts
 * them anew, with the bundles accepted last from ConfigMaps ({@link LastAccepted}), then reloading every
 * bundle ConfigMap.
 *
 * <p>With sharding ({@link Shards}, docs/sharding.md) every replica acts on its own share: the controllers
 * and the reloader run while it holds its member Lease ({@code runbook-shard-MEMBER}), its primaries'
 * informers selecting {@code runbook.dev/shard=MEMBER}; the leader Lease's holder runs the sharder
 * ({@link ShardingLeader}) and writes the accepted copies of bundle ConfigMaps.
 */
public final class OperatorRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OperatorRuntime.class);

    /**
     * @param bundles          the bundles from directories
     * @param namespaces       the namespaces to reconcile in; empty for all
     * @param bundleNamespace  where to watch bundle ConfigMaps; null to watch none
     * @param leaderElection   the Lease to hold before acting; null to act at once
     * @param policy           what the administrator lets each bundle touch (docs/security.md)
     * @param presence         where an acting operator announces itself, to detect a second one; null for none
     * @param reconcileThreads how many cycles each bundle's controller runs at once ({@link ReconcileThreads})
     * @param shards           this replica's share of the primaries; null to act on all of them. Needs
     *                         {@code leaderElection}: its holder runs the sharder
     */
    public record Settings(List<DecidingBundle> bundles, Set<String> namespaces, String bundleNamespace,
                           Lease leaderElection, Policy policy, Presence presence, int reconcileThreads, Shards shards) {
        public Settings {
            if (shards != null && leaderElection == null) {
                throw new IllegalArgumentException("sharding needs the leader Lease: its holder assigns the primaries to the members");
            }
        }

        /** Unsharded. */
        public Settings(List<DecidingBundle> bundles, Set<String> namespaces, String bundleNamespace,
                        Lease leaderElection, Policy policy, Presence presence, int reconcileThreads) {
            this(bundles, namespaces, bundleNamespace, leaderElection, policy, presence, reconcileThreads, null);
        }

        /** With {@link ReconcileThreads#byDefault()} threads per controller. */
        public Settings(List<DecidingBundle> bundles, Set<String> namespaces, String bundleNamespace,
                        Lease leaderElection, Policy policy, Presence presence) {
            this(bundles, namespaces, bundleNamespace, leaderElection, policy, presence, ReconcileThreads.byDefault());
        }

        /** Under {@link Policy#DEFAULT}, keeping no presence Lease. */
        public Settings(List<DecidingBundle> bundles, Set<String> namespaces, String bundleNamespace, Lease leaderElection) {
            this(bundles, namespaces, bundleNamespace, leaderElection, Policy.DEFAULT, null);
        }
    }

    /** Where and as whom an acting operator keeps its presence Lease ({@link OperatorPresence}). */
    public record Presence(String namespace, String identity) {}

    /**
     * This replica's share: its member name (the value of {@link ShardLabels#SHARD} on its primaries; its
     * member Lease is held in the leader Lease's namespace, with the leader Lease's timing) and how often the
     * sharder looks at the members when this replica leads.
     */
    public record Shards(String member, ShardingLoop.Timing loop) {
        public Shards {
            ShardLabels.requireMemberName(member);
        }
    }

    /**
     * How long the reload worker may spend on one ConfigMap (unpack, compile, scenarios) before readiness and
     * liveness fail, at least: never less than the bound at which a worker process vetting it is killed,
     * plus {@link #BEYOND_WORKER_BOUNDS} ({@link #reloadDeadline}).
     */
    public static final Duration RELOAD_DEADLINE = Duration.ofMinutes(3);
    /** How much longer than a worker's own bound the operator's thread that waits for it may take before it counts as stuck. */
    static final Duration BEYOND_WORKER_BOUNDS = Duration.ofMinutes(1);
    /** How long the API server probe waits for an answer. */
    static final int PROBE_TIMEOUT_MILLIS = 3000;

    /** The Lease that replicas compete for, and the client to reach it ({@link LeaderElection#leaseClient}). */
    public record Lease(String namespace, String name, String identity, LeaderElection.Timing timing,
                        KubernetesClient client) {}

    private final KubernetesClient client;
    private final Settings settings;
    private final Clock clock;
    private final OperatorMetrics metrics;
    private final CycleListener listener;
    /** The Lease this replica acts under: the leader Lease unsharded, its member Lease sharded; null for none. */
    private final LeaderElection election;
    /** With sharding, the stand for the leader Lease, whose holder runs the sharder; else null. */
    private final ShardingLeader sharding;
    /** With sharding, the live members and the running bundles' sharders, which the webhook at create answers from; else null. */
    private final Membership membership;
    private final PrimarySharders sharders;
    private final CompletableFuture<Void> failure = new CompletableFuture<>();
    private final KubernetesClient probeClient;
    private final ApiServerProbe apiServer;
    private final Heartbeat reloadHeartbeat;
    private final StuckDecisions decisions;
    private final DeadlineOverruns overruns = new DeadlineOverruns(DeadlineOverruns.DEFAULT_THRESHOLD);
    private final OperatorPresence presence;
    /** Verdicts on bundle ConfigMaps, shared by the reloader, the restore and the webhook: one vetting per content. */
    private final SharedVerdicts verdicts;
    private ScheduledExecutorService presenceTimer;
    /** Volatile: the sharder's loop reads the running bundles without the runtime's lock. */
    private volatile RunbookOperator operator;
    private volatile BundleReloader reloader;
    private boolean started;

    public OperatorRuntime(KubernetesClient client, Settings settings, Clock clock, OperatorMetrics metrics,
                           CycleListener also) {
        this.client = client;
        this.settings = settings;
        this.clock = clock;
        this.metrics = metrics;
        this.verdicts = new SharedVerdicts(new BundleVetting(settings.policy()));
        CycleListener deadlines = new CycleDeadlines(overruns, settings.policy());
        this.decisions = new StuckDecisions(WorkerBounds.cycle(settings.policy().containment()).plus(BEYOND_WORKER_BOUNDS), clock);
        CycleListener own = new CycleListener() {
            @Override
            public void cycleRecorded(Primary primary, CycleReport report) {
                metrics.cycleRecorded(primary, report);
                deadlines.cycleRecorded(primary, report);
            }

            @Override
            public void decisionStarted(Primary primary) { decisions.started(primary); }

            @Override
            public void decisionEnded() { decisions.ended(); }

            @Override
            public io.javaoperatorsdk.operator.api.monitoring.Metrics controllerMetrics(String bundle) {
                return metrics.controllerMetrics(bundle);
            }
        };
        this.listener = CycleListener.both(own, also);
        Lease lease = settings.leaderElection();
        LeaderElection.Candidate acting = new LeaderElection.Candidate() {
            @Override
            public void lead() { leadOrFail(); }

            @Override
            public void standBy() { OperatorRuntime.this.standBy(); }
        };
        Shards shards = settings.shards();
        if (shards == null) {
            this.election = lease == null ? null
                    : new LeaderElection(lease.client(), lease.namespace(), lease.name(), lease.identity(), lease.timing(), acting);
            this.sharding = null;
            this.membership = null;
            this.sharders = null;
        } else {
            this.membership = new Membership(client, lease.namespace(), lease.timing(), clock);
            this.election = membership.memberLease(LeaderElection.leaseClient(client, lease.timing()), shards.member(), acting);
            this.sharders = new PrimarySharders(client, settings.namespaces(), this::runningBundles);
            ShardingLoop loop = new ShardingLoop(membership, sharders, shards.loop(), clock);
            metrics.shardPrimaries(() -> {
                RunbookOperator current = operator;
                return current == null ? 0 : current.primariesCached();
            });
            this.sharding = new ShardingLeader(lease, loop, metrics, () -> {
                BundleReloader current = reloader;
                if (current != null) current.writeCopies();
            });
        }
        metrics.leading(false);
        // Its own client, without the retries and long timeouts of the operator's: one refused request is the answer.
        this.probeClient = Kubeconfig.client(new ConfigBuilder(client.getConfiguration())
                .withRequestRetryBackoffLimit(0).withRequestTimeout(PROBE_TIMEOUT_MILLIS).build());
        this.apiServer = new ApiServerProbe(probeClient::getKubernetesVersion, String.valueOf(client.getMasterUrl()), clock);
        this.reloadHeartbeat = new Heartbeat("the reload worker", reloadDeadline(settings.policy()), clock);
        this.presence = settings.presence() == null ? null : new OperatorPresence(client, settings.presence().namespace(),
                settings.presence().identity(), shards == null ? null : shards.member(), clock, metrics.registry());
    }

    /** Where the webhook gets its verdicts: the reloader's, so that a bundle it let through is not vetted again. */
    public SharedVerdicts verdicts() { return verdicts; }

    /**
     * Sharded, the mutating webhook's decision at create (docs/sharding.md#the-webhook-at-create), for every
     * member to serve: a new primary of a running bundle gets its ring owner among the live members, a Pod its
     * controller's label. Empty unsharded.
     */
    public Optional<ShardAdmission> shardAdmission() {
        if (membership == null) return Optional.empty();
        return Optional.of(new ShardAdmission(sharders::primaryKinds, membership::live, ShardAdmission.ownersFrom(client)));
    }

    /** Where cycles and reloads report how they ended against their deadline; liveness counts the overruns. */
    public DeadlineReport deadlines() { return overruns; }

    /**
     * Starts: at once without leader election (and throws when the controllers cannot start); with it,
     * stands for election and returns, the controllers starting when this replica leads; sharded, holds
     * its member Lease (the controllers start once it does) and stands for the leader Lease (the sharder).
     */
    public void start() {
        synchronized (this) {
            started = true;
        }
        apiServer.start();
        if (election == null) {
            act();
        } else if (sharding == null) {
            LOG.info("standing for election on lease {}/{} as {}", settings.leaderElection().namespace(),
                    settings.leaderElection().name(), election.identity());
            election.start();
        } else {
            LOG.info("shard member {}: acting while holding lease {}/{}; assigning the shards while holding lease {}/{}",
                    settings.shards().member(), settings.leaderElection().namespace(), Membership.leaseName(settings.shards().member()),
                    settings.leaderElection().namespace(), settings.leaderElection().name());
            election.start();
            sharding.start();
        }
    }

    /** The bundles running now (the sharder's primary kinds); the image's while the controllers are stopped. */
    private List<DecidingBundle> runningBundles() {
        RunbookOperator current = operator;
        return current == null ? settings.bundles() : current.bundles();
    }

    /** Completes exceptionally when the controllers could not start on taking the lead: the process should end. */
    public CompletableFuture<Void> failure() { return failure; }

    private void leadOrFail() {
        try {
            act();
        } catch (RuntimeException e) {
            LOG.error("leading, but the controllers cannot start: {}", e.toString());
            standBy();
            failure.completeExceptionally(e);
        }
    }

    private synchronized void act() {
        if (operator != null) return;
        // What was accepted before runs from the start: never the image's bundle in its place, not even briefly.
        List<LastAccepted.Restored> restored = settings.bundleNamespace() == null ? List.of()
                : LastAccepted.restore(client, settings.bundleNamespace(), verdicts, keepsCopies());
        Map<String, DecidingBundle> accepted = new LinkedHashMap<>();
        restored.forEach(r -> accepted.put(r.source(), r.bundle()));
        RunbookOperator starting = RunbookOperator.builder(client).bundles(settings.bundles())
                .namespaces(settings.namespaces()).clock(clock).listener(listener).policy(settings.policy())
                .reconcileThreads(settings.reconcileThreads())
                .shardMember(settings.shards() == null ? null : settings.shards().member()).build();
        starting.start(accepted);
        operator = starting;
        for (DecidingBundle bundle : operator.bundles()) metrics.bundleActivated(bundle.name(), bundle.version(), 1);
        if (settings.bundleNamespace() != null) {
            reloader = new BundleReloader(client, settings.bundleNamespace(), operator, new ReloadMetrics(metrics), clock,
                    reloadHeartbeat, verdicts, this::keepsCopies);
            reloader.start(restored);
        }
        if (sharding == null) metrics.leading(true);
        announce();
    }

    /** Whether this replica writes the accepted copies of bundle ConfigMaps: unsharded always, sharded while it leads. */
    private boolean keepsCopies() {
        return sharding == null || sharding.isLeading();
    }

    /** While acting, renews the presence Lease and warns about other operators acting ({@link OperatorPresence}). */
    private void announce() {
        if (presence == null || presenceTimer != null) return;
        presenceTimer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("runbook-presence"));
        presenceTimer.scheduleWithFixedDelay(() -> {
            try {
                presence.renewAndLook();
            } catch (RuntimeException e) {
                LOG.debug("presence Lease not renewed: {}", e.getMessage());
            }
        }, 0, OperatorPresence.PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    }

    private synchronized void standBy() {
        if (sharding == null) metrics.leading(false);
        if (presenceTimer != null) {
            presenceTimer.shutdownNow();
            presenceTimer = null;
            presence.withdraw();
        }
        if (reloader != null) {
            reloader.close();
            reloader = null;
        }
        if (operator != null) {
            List<DecidingBundle> running = operator.bundles();
            try {
                operator.close();
            } finally {
                operator = null;
                running.forEach(bundle -> metrics.bundleRemoved(bundle.name()));
            }
        }
    }

    /** The controllers, while this replica acts. */
    public synchronized Optional<RunbookOperator> operator() { return Optional.ofNullable(operator); }

    /** Whether this replica acts now: it leads, holds its shard member Lease, or there is no election. */
    public synchronized boolean isActing() { return operator != null; }

    /**
     * Why the replica is not ready; empty when ready. A replica standing by is ready: it is healthy and
     * prepared to take over. A shard member that does not hold its member Lease is not: nobody acts on its share.
     */
    public synchronized List<String> notReady() {
        if (!started) return List.of("starting");
        List<String> problems = new ArrayList<>(apiServer.problems());
        problems.addAll(reloadHeartbeat.problems());
        if (operator != null) problems.addAll(operator.notReady());
        else if (election == null) problems.add("the controllers are not running");
        else if (sharding != null) problems.add("shard member " + settings.shards().member() + " does not hold its Lease "
                + Membership.leaseName(settings.shards().member()) + " yet: nobody acts on its share");
        return problems;
    }

    /**
     * Why the process is not alive: the controllers failed to start while leading, cycles run in this
     * process overran their deadline again and again, or a thread is stuck for good: the reload worker on
     * one ConfigMap, or a reconcile thread in a decision, past its bound.
     */
    public List<String> notAlive() {
        List<String> problems = new ArrayList<>(overruns.problems());
        problems.addAll(reloadHeartbeat.problems());
        problems.addAll(decisions.problems());
        if (failure.isCompletedExceptionally()) problems.add("the controllers could not start");
        return problems;
    }

    /** How long the reload worker may take on one ConfigMap: {@link #RELOAD_DEADLINE}, or longer than a vetting worker's bound. */
    public static Duration reloadDeadline(Policy policy) {
        Duration beyondWorker = WorkerBounds.load(policy.containment()).plus(BEYOND_WORKER_BOUNDS);
        return beyondWorker.compareTo(RELOAD_DEADLINE) > 0 ? beyondWorker : RELOAD_DEADLINE;
    }

    @Override
    public void close() {
        if (sharding != null) sharding.close();
        if (election != null) election.close();
        standBy();
        apiServer.close();
        probeClient.close();
    }
}
