package dev.runbook.instance;

import dev.runbook.postgres.contract.PostgresContract;
import dev.runbook.instance.act.Actor;
import dev.runbook.instance.address.Addresses;
import dev.runbook.instance.address.ClusterDnsAddresses;
import dev.runbook.instance.address.LoopbackAddresses;
import dev.runbook.instance.auth.ApiServerDiscovery;
import dev.runbook.instance.auth.CallerCheck;
import dev.runbook.instance.auth.Callers;
import dev.runbook.instance.auth.ServiceAccountTokens;
import dev.runbook.instance.backup.ArchiveReport;
import dev.runbook.instance.backup.BackupEndpoint;
import dev.runbook.instance.backup.BackupJobMain;
import dev.runbook.instance.backup.BarmanCommands;
import dev.runbook.instance.backup.ObjectStore;
import dev.runbook.instance.backup.Recovery;
import dev.runbook.instance.backup.Restorer;
import dev.runbook.instance.backup.ToolScripts;
import dev.runbook.instance.backup.WalArchiving;
import dev.runbook.instance.config.Settings;
import dev.runbook.instance.decide.Decider;
import dev.runbook.instance.lease.LeaseKeeper;
import dev.runbook.instance.lease.LeaseWatchdog;
import dev.runbook.instance.lease.PrimaryLease;
import dev.runbook.instance.lease.Uptime;
import dev.runbook.instance.local.LocalInspector;
import dev.runbook.instance.observe.ClusterObserver;
import dev.runbook.instance.postgres.ConfigFiles;
import dev.runbook.instance.postgres.PgCommands;
import dev.runbook.instance.postgres.ReplicationRole;
import dev.runbook.instance.postgres.Sql;
import dev.runbook.instance.probe.ProbeServer;
import dev.runbook.instance.probe.StatusEndpoint;
import dev.runbook.instance.report.PodReporter;
import dev.runbook.instance.tls.InstanceTls;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The database container's entrypoint: wires the parts from the environment and runs a pass every interval. */
public final class InstanceManagerMain {
    private static final Logger LOG = LoggerFactory.getLogger(InstanceManagerMain.class);
    private static final int EXIT_BAD_SETTINGS = 2;
    private static final int STALE_PASSES = 30;
    /** /readyz says not ready once the last pass is older than this many intervals: a hung or paused manager vouches for nothing. */
    private static final int UNREADY_PASSES = 5;

    private InstanceManagerMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && "backup".equals(args[0])) {
            System.exit(BackupJobMain.run(System.getenv()));
            return;
        }
        Settings settings;
        Optional<ObjectStore> store;
        Optional<Recovery> recovery;
        try {
            settings = Settings.fromEnvironment(System.getenv());
            store = ObjectStore.fromEnvironment(System.getenv(), ObjectStore.BACKUP, settings.clusterName());
            recovery = Recovery.fromEnvironment(System.getenv(), settings.clusterName());
        } catch (IllegalArgumentException e) {
            System.err.println("runbook-instance: " + e.getMessage());
            System.exit(EXIT_BAD_SETTINGS);
            return;
        }
        LOG.info("starting: {}; WAL archiving: {}; restore: {}", settings, store.map(Object::toString).orElse("off"),
                recovery.map(r -> r.store() + " " + r.backupName().orElse("newest") + r.targetTime().map(t -> " to " + t).orElse("")).orElse("no"));
        Clock clock = Clock.systemUTC();
        ConfigFiles files = new ConfigFiles(settings);
        files.prepareRunDirectory();
        PgCommands commands = new PgCommands(settings, files);
        Sql sql = new Sql(settings);
        Addresses addresses = settings.addressFile().<Addresses>map(LoopbackAddresses::new)
                .orElseGet(() -> new ClusterDnsAddresses(settings.clusterName(), settings.namespace(), 5432));
        KubernetesClient client = new KubernetesClientBuilder().build();
        ProbeServer probes = new ProbeServer(settings.httpPort(), clock, settings.interval().multipliedBy(STALE_PASSES),
                settings.interval().multipliedBy(UNREADY_PASSES));
        PodReporter reporter = new PodReporter(client, settings.namespace(), settings.podName(), clock);
        BarmanCommands barman = new BarmanCommands(settings.runDir(), commands.toolEnvironment());
        ToolScripts scripts = new ToolScripts(settings.runDir(), files);
        WalArchiving archiving = new WalArchiving(store, scripts, files);
        InstanceTls tls = new InstanceTls(settings, files, addresses, clock);
        Optional<Restorer> restorer = recovery.map(r -> new Restorer(settings, r, barman, scripts, archiving, files, commands, reporter::annotate, clock,
                tls));
        // Only the operator and the cluster's backup Jobs may call these (docs/instance-manager.md#who-may-call-the-endpoints).
        ServiceAccountTokens tokens = new ServiceAccountTokens(new ApiServerDiscovery(client), PostgresContract.AUDIENCE, clock);
        Callers callers = Callers.parse(System.getenv(Callers.VARIABLE));
        probes.route(PostgresContract.BACKUP_PATH, new CallerCheck(tokens, callers, new BackupEndpoint(store.map(s ->
                BackupEndpoint.barman(s, barman, sql, settings.runDir().toString(), settings.port(), Settings.SUPERUSER, settings.dataDir(),
                        () -> Optional.of(files.upstream()).filter(u -> !u.isEmpty()).map(addresses::of))))));
        StatusEndpoint status = new StatusEndpoint(clock);
        probes.route(PostgresContract.STATUS_PATH, new CallerCheck(tokens, callers, status));
        PrimaryLease lease = new PrimaryLease(settings.runDir(), Uptime.system());
        lease.release();    // a lease left from before this start holds nothing: no server of this container runs yet
        LeaseWatchdog watchdog = new LeaseWatchdog(settings.runDir(), settings.dataDir(), lease.file());
        ClusterObserver observer = new ClusterObserver(client, settings.namespace(), settings.podName(), settings.clusterName());
        LeaseKeeper leases = new LeaseKeeper(settings.podName(), lease, watchdog, Uptime.system());
        InstanceLoop loop = new InstanceLoop(
                observer,
                new LocalInspector(settings, sql, commands, files),
                new Decider(settings.podName(), recovery.isPresent(), addresses, ReplicationRole.mark(files.replicationPassword())),
                new Actor(settings, commands, files, sql, addresses, archiving, restorer, watchdog, tls),
                reporter,
                probes,
                store.map(s -> new ArchiveReport(sql, settings.runDir())),
                leases,
                status);

        ScheduledExecutorService passes = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "instance-loop"));
        ScheduledExecutorService renewals = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "lease-renewal");
            t.setDaemon(true);
            return t;
        });
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            // The container is stopping: end the loop, then stop the server cleanly (fast shutdown).
            renewals.shutdownNow();
            passes.shutdown();
            try {
                passes.awaitTermination(2, TimeUnit.MINUTES);
                if (LocalInspector.dataState(settings.dataDir()) == dev.runbook.instance.local.DataState.VALID) {
                    commands.stop();
                }
            } catch (RuntimeException | InterruptedException e) {
                LOG.warn("stopping the server on shutdown: {}", e.getMessage());
            }
            lease.release();
            watchdog.close();
            probes.close();
            stopped.countDown();
        }, "shutdown"));
        passes.scheduleWithFixedDelay(loop::pass, 0, settings.interval().toMillis(), TimeUnit.MILLISECONDS);
        // The lease is renewed apart from the passes, whose steps may take seconds (docs/instance-manager.md#fencing-the-primary-lease).
        renewals.scheduleWithFixedDelay(() -> {
            try {
                leases.renewFromOwnReads(observer::observeOwn);
            } catch (RuntimeException e) {
                LOG.debug("lease not renewed this time: {}", e.getMessage());
            }
        }, settings.interval().toMillis(), settings.interval().toMillis(), TimeUnit.MILLISECONDS);
        stopped.await();
    }
}
