package dev.runbook.operator.reload;

import dev.runbook.operator.concurrent.DaemonThreads;
import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.operator.controller.BundleRefusedException;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.health.Heartbeat;
import dev.runbook.operator.error.RootCause;
import dev.runbook.operator.kube.EventWriter;
import dev.runbook.rules.fact.ObjectRef;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Hot reload: watches the ConfigMaps labelled {@link BundleConfigMaps#LABEL} in one namespace (the
 * operator's own) and runs the bundle each one carries. A new or changed ConfigMap is unpacked,
 * compiled and its scenarios run ({@link BundleVetting}, through {@link ContentVetting}) on one reload thread, never on a reconcile
 * thread; a bundle that passes is installed ({@link RunbookOperator#install}); one that fails is
 * refused with an event on the ConfigMap, a log line and the listener (a metric), and whatever ran
 * before keeps running. A deleted ConfigMap stops its bundle.
 *
 * <p>ConfigMaps are handled one at a time, in the order their changes arrive, and a content already
 * handled (accepted or refused) is not handled again: a resync or a label change reloads nothing and
 * a refused bundle is reported once per content.
 *
 * <p>Acceptance lasts ({@link AcceptedBundles}): each accepted content is copied to a Secret, and
 * {@link #start()} (a start, or taking the Lease) first runs each ConfigMap's last accepted copy, then
 * handles the ConfigMap as it is now. A ConfigMap that is refused therefore never displaces the bundle
 * accepted from it before, across restarts and leader changes alike.
 *
 * <p>With sharding every replica runs a reloader, each vetting on its own, but only the one that holds the
 * leader Lease writes and deletes the copies ({@code keepsCopies}): one writer, in the order its own watch
 * delivered the changes, so a slower replica never puts back an older copy over a newer one. A replica
 * that takes the Lease writes the copies of what it accepted that are not written yet
 * ({@link #writeCopies()}), in case the one before it stopped between accepting and writing.
 */
public final class BundleReloader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BundleReloader.class);

    private final KubernetesClient client;
    private final String namespace;
    private final RunbookOperator operator;
    private final ContentVetting vetting;
    private final EventWriter events;
    private final ReloadListener listener;
    private final AcceptedBundles accepted;
    private final Clock clock;
    private final Heartbeat heartbeat;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(DaemonThreads.named("runbook-reload"));
    /** The content last handled per source; touched only on the reload thread (and before it starts). */
    private final Map<String, String> handled = new HashMap<>();
    /** What was accepted last per source, to write its copy again on taking the Lease; touched only on the reload thread. */
    private final Map<String, Acceptance> acceptedHere = new HashMap<>();
    private final BooleanSupplier keepsCopies;
    private SharedIndexInformer<ConfigMap> informer;

    public BundleReloader(KubernetesClient client, String namespace, RunbookOperator operator, ReloadListener listener,
                          Clock clock) {
        this(client, namespace, operator, listener, clock, new Heartbeat("the reload worker", Duration.ofDays(365), clock));
    }

    /** @param heartbeat told when the worker starts and ends each ConfigMap, so that readiness sees a stuck one */
    public BundleReloader(KubernetesClient client, String namespace, RunbookOperator operator, ReloadListener listener,
                          Clock clock, Heartbeat heartbeat) {
        this(client, namespace, operator, listener, clock, heartbeat, new BundleVetting(operator.policy()));
    }

    /**
     * @param vetting where verdicts come from: the operator's {@link SharedVerdicts}, which its webhook asks
     *                too, under the operator's policy
     */
    public BundleReloader(KubernetesClient client, String namespace, RunbookOperator operator, ReloadListener listener,
                          Clock clock, Heartbeat heartbeat, ContentVetting vetting) {
        this(client, namespace, operator, listener, clock, heartbeat, vetting, () -> true);
    }

    /**
     * @param keepsCopies whether this replica writes the accepted copies now: always without sharding; with
     *                    it, while it holds the leader Lease
     */
    public BundleReloader(KubernetesClient client, String namespace, RunbookOperator operator, ReloadListener listener,
                          Clock clock, Heartbeat heartbeat, ContentVetting vetting, BooleanSupplier keepsCopies) {
        this.keepsCopies = keepsCopies;
        this.heartbeat = heartbeat;
        this.client = client;
        this.namespace = namespace;
        this.operator = operator;
        this.vetting = vetting;
        this.events = new EventWriter(client);
        this.listener = listener;
        this.accepted = new AcceptedBundles(client, namespace);
        this.clock = clock;
    }

    /** The source name of a ConfigMap's bundle: {@code configmap/NAMESPACE/NAME}. */
    public static String source(String namespace, String name) {
        return "configmap/" + namespace + "/" + name;
    }

    /** Loads the bundle ConfigMaps there are now, then watches for changes ({@link #start(List)}). */
    public void start() {
        start(List.of());
    }

    /**
     * Loads the bundle ConfigMaps there are now, one after the other, then watches for changes. Returns
     * once the ones there were have been accepted or refused.
     *
     * @param restored the bundles the operator started with from the copies accepted before
     *                 ({@link LastAccepted}): a ConfigMap still holding that content is not loaded again,
     *                 and one holding other content that is refused leaves the restored bundle running
     */
    public void start(List<LastAccepted.Restored> restored) {
        for (LastAccepted.Restored r : restored) {
            // Only what really started counts as handled: a restored bundle the operator could not start
            // (a clash, a controller that failed) leaves its ConfigMap to be loaded, and refused, as it is.
            operator.active(r.source()).filter(active -> active.bundle().version().equals(r.bundle().version())).ifPresent(active -> {
                handled.put(r.source(), r.contentHash());
                listener.accepted(r.source(), new RunbookOperator.Installed(RunbookOperator.Change.UNCHANGED, active));
            });
        }
        var configMaps = client.configMaps().inNamespace(namespace).withLabel(BundleConfigMaps.LABEL);
        configMaps.list().getItems().stream()
                .sorted(Comparator.comparing(c -> c.getMetadata().getName()))
                .forEach(this::reload);
        informer = configMaps.inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap configMap) { thread.execute(() -> timed(configMap, () -> reload(configMap))); }

            @Override
            public void onUpdate(ConfigMap old, ConfigMap configMap) { thread.execute(() -> timed(configMap, () -> reload(configMap))); }

            @Override
            public void onDelete(ConfigMap configMap, boolean finalStateUnknown) {
                thread.execute(() -> timed(configMap, () -> removed(configMap)));
            }
        }, 0);
        LOG.info("watching bundle ConfigMaps (label {}) in namespace {}", BundleConfigMaps.LABEL, namespace);
    }

    /** Runs one piece of the worker's work under its heartbeat. */
    private void timed(ConfigMap configMap, Runnable work) {
        heartbeat.begin(source(namespace, configMap.getMetadata().getName()));
        try {
            work.run();
        } finally {
            heartbeat.end();
        }
    }

    private void reload(ConfigMap configMap) {
        String name = configMap.getMetadata().getName();
        String source = source(namespace, name);
        Map<String, String> data = configMap.getData() == null ? Map.of() : configMap.getData();
        String content = contentHash(data);
        if (content.equals(handled.put(source, content))) return;
        try {
            BundleVetting.Vetted vetted = vetting.vetData(source, data);
            RunbookOperator.Installed installed = operator.install(source, vetted.bundle());
            Acceptance acceptance = new Acceptance(configMap, data, content, vetted.bundle().name());
            acceptedHere.put(source, acceptance);
            if (keepsCopies.getAsBoolean()) remember(acceptance);
            String message = "bundle " + vetted.bundle() + " " + describe(installed.change()) + " (generation "
                    + installed.active().generation() + "; " + vetted.scenarios() + (vetted.scenarios() == 1 ? " scenario" : " scenarios")
                    + " passed)";
            LOG.info("{}: {}", source, message);
            // Also when nothing had to be swapped (the image's bundle shipped as it is, or only its scenarios
            // changed): the one who applied the ConfigMap looks for this event to know it was accepted.
            event(configMap, "Normal", "BundleActivated", message);
            listener.accepted(source, installed);
        } catch (BundleRefusedException refusal) {
            refuse(configMap, source, refusal);
        } catch (RuntimeException | StackOverflowError e) {
            // Rule code that overflows is caught in the cycle; this is for anything deeper in compiling.
            refuse(configMap, source, new BundleRefusedException(source + ": refused: " + e));
        }
    }

    /** The hash by which a ConfigMap's content is known: the same data, the same hash. */
    static String contentHash(Map<String, String> data) {
        return new BundleSource("", data).contentHash();
    }

    /** A content this replica accepted from a ConfigMap, as its copy is written. */
    private record Acceptance(ConfigMap configMap, Map<String, String> data, String content, String bundleName) {}

    /** Keeps a copy of what was accepted; a failure to is logged, and the bundle runs all the same. */
    private void remember(Acceptance acceptance) {
        ConfigMap configMap = acceptance.configMap();
        try {
            accepted.record(configMap, acceptance.data(), acceptance.content(), acceptance.bundleName());
        } catch (RuntimeException e) {
            LOG.warn("{}: accepted, but the copy that keeps it across restarts could not be written: {} (may the operator "
                    + "write Secrets in namespace {}?)", configMap.getMetadata().getName(), RootCause.message(e), namespace);
        }
    }

    /**
     * Writes, on the reload thread (after the reloads already queued), the copy of each content this
     * replica accepted last whose copy holds another content or none: for a replica that just took the
     * leader Lease, whose predecessor may have stopped between accepting and writing.
     */
    public void writeCopies() {
        try {
            thread.execute(this::writeMissingCopies);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            LOG.debug("the reloader is closed: no copies to write");
        }
    }

    private void writeMissingCopies() {
        if (!keepsCopies.getAsBoolean()) return;
        for (Acceptance acceptance : acceptedHere.values()) {
            String name = acceptance.configMap().getMetadata().getName();
            try {
                boolean written = accepted.find(name).filter(copy -> copy.contentHash().equals(acceptance.content())).isPresent();
                if (!written) remember(acceptance);
            } catch (RuntimeException e) {
                LOG.warn("{}: could not read its accepted copy: {}", name, RootCause.message(e));
            }
        }
    }

    private void forget(String configMap) {
        try {
            accepted.forget(configMap);
        } catch (RuntimeException e) {
            LOG.warn("{}: could not delete its accepted copy: {}", configMap, RootCause.message(e));
        }
    }

    private void refuse(ConfigMap configMap, String source, BundleRefusedException refusal) {
        String running = operator.active(source).map(a -> "the previous version keeps running: bundle " + a.bundle())
                .orElse("no bundle runs from this ConfigMap");
        String report = refusal.report(running);
        LOG.warn("{}: {}", source, report);
        event(configMap, "Warning", "BundleRefused", report);
        listener.refused(source, BundleNames.of(configMap), refusal);
    }

    private void removed(ConfigMap configMap) {
        String source = source(namespace, configMap.getMetadata().getName());
        handled.remove(source);
        acceptedHere.remove(source);
        if (keepsCopies.getAsBoolean()) forget(configMap.getMetadata().getName());
        if (operator.active(source).isEmpty()) return;
        RunbookOperator.Installed reverted = operator.remove(source).orElse(null);
        LOG.info("{}: the ConfigMap was deleted: {}", source, reverted == null ? "its bundle's controller is stopped"
                : "bundle " + reverted.active().bundle() + " from the operator's image runs again");
        listener.removed(source, reverted);
    }

    private static String describe(RunbookOperator.Change change) {
        return switch (change) {
            case STARTED -> "is active: a new controller started";
            case SWAPPED -> "is active: rules swapped under the running controller";
            case RESTARTED -> "is active: the controller was rebuilt";
            case UNCHANGED -> "is active: the same version was already running";
        };
    }

    private void event(ConfigMap configMap, String type, String reason, String message) {
        try {
            events.record(ObjectRef.of("v1", "ConfigMap", namespace, configMap.getMetadata().getName()),
                    configMap.getMetadata().getUid(), type, reason, message, clock.instant());
        } catch (RuntimeException e) {
            LOG.warn("{}: could not record event {}: {}", configMap.getMetadata().getName(), reason, e.toString());
        }
    }

    /** Stops watching; a reload in progress is abandoned (the running bundles stay as they are). */
    @Override
    public void close() {
        if (informer != null) informer.stop();
        thread.shutdownNow();
        try {
            thread.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
