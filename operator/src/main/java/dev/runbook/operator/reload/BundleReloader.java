package dev.runbook.operator.reload;

import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import dev.runbook.operator.controller.BundleRefusedException;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.kube.EventWriter;
import dev.runbook.rules.fact.ObjectRef;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Hot reload: watches the ConfigMaps labelled {@link BundleConfigMaps#LABEL} in one namespace (the
 * operator's own) and runs the bundle each one carries. A new or changed ConfigMap is unpacked,
 * compiled and its scenarios run ({@link BundleVetting}) on one reload thread, never on a reconcile
 * thread; a bundle that passes is installed ({@link RunbookOperator#install}); one that fails is
 * refused with an event on the ConfigMap, a log line and the listener (a metric), and whatever ran
 * before keeps running. A deleted ConfigMap stops its bundle.
 *
 * <p>ConfigMaps are handled one at a time, in the order their changes arrive, and a content already
 * handled (accepted or refused) is not handled again: a resync or a label change reloads nothing and
 * a refused bundle is reported once per content.
 */
public final class BundleReloader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BundleReloader.class);

    private final KubernetesClient client;
    private final String namespace;
    private final RunbookOperator operator;
    private final BundleVetting vetting = new BundleVetting();
    private final EventWriter events;
    private final ReloadListener listener;
    private final Clock clock;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(runnable -> {
        Thread t = new Thread(runnable, "runbook-reload");
        t.setDaemon(true);
        return t;
    });
    /** The content last handled per source; touched only on the reload thread (and before it starts). */
    private final Map<String, String> handled = new HashMap<>();
    private SharedIndexInformer<ConfigMap> informer;

    public BundleReloader(KubernetesClient client, String namespace, RunbookOperator operator, ReloadListener listener,
                          Clock clock) {
        this.client = client;
        this.namespace = namespace;
        this.operator = operator;
        this.events = new EventWriter(client);
        this.listener = listener;
        this.clock = clock;
    }

    /** The source name of a ConfigMap's bundle: {@code configmap/NAMESPACE/NAME}. */
    public static String source(String namespace, String name) {
        return "configmap/" + namespace + "/" + name;
    }

    /**
     * Loads the bundle ConfigMaps there are now, one after the other, then watches for changes. Returns
     * once the ones there were have been accepted or refused.
     */
    public void start() {
        var configMaps = client.configMaps().inNamespace(namespace).withLabel(BundleConfigMaps.LABEL);
        configMaps.list().getItems().stream()
                .sorted(Comparator.comparing(c -> c.getMetadata().getName()))
                .forEach(this::reload);
        informer = configMaps.inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap configMap) { thread.execute(() -> reload(configMap)); }

            @Override
            public void onUpdate(ConfigMap old, ConfigMap configMap) { thread.execute(() -> reload(configMap)); }

            @Override
            public void onDelete(ConfigMap configMap, boolean finalStateUnknown) { thread.execute(() -> removed(configMap)); }
        }, 0);
        LOG.info("watching bundle ConfigMaps (label {}) in namespace {}", BundleConfigMaps.LABEL, namespace);
    }

    private void reload(ConfigMap configMap) {
        String name = configMap.getMetadata().getName();
        String source = source(namespace, name);
        Map<String, String> data = configMap.getData() == null ? Map.of() : configMap.getData();
        String content = new BundleSource(source, data).contentHash();
        if (content.equals(handled.put(source, content))) return;
        try {
            BundleVetting.Vetted vetted = vetIn(source, data);
            RunbookOperator.Installed installed = operator.install(source, vetted.bundle());
            String message = "bundle " + vetted.bundle() + " " + describe(installed.change()) + " (generation "
                    + installed.active().generation() + "; " + vetted.scenarios() + (vetted.scenarios() == 1 ? " scenario" : " scenarios")
                    + " passed)";
            LOG.info("{}: {}", source, message);
            if (installed.change() != RunbookOperator.Change.UNCHANGED) {
                event(configMap, "Normal", "BundleActivated", message);
            }
            listener.accepted(source, installed);
        } catch (BundleRefusedException refusal) {
            refuse(configMap, source, refusal);
        } catch (RuntimeException | StackOverflowError e) {
            // Rule code that overflows is caught in the cycle; this is for anything deeper in compiling.
            refuse(configMap, source, new BundleRefusedException(source + ": refused: " + e));
        }
    }

    private BundleVetting.Vetted vetIn(String source, Map<String, String> data) {
        Path directory = null;
        try {
            directory = Files.createTempDirectory("runbook-bundle-");
            try {
                BundleConfigMaps.unpack(source, data, directory);
            } catch (InvalidInputException e) {
                throw new BundleRefusedException(source + ": refused: not a bundle ConfigMap",
                        e.getProblems().stream().map(Problem::toString).toList());
            }
            return vetting.vet(source, directory);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (directory != null) deleteTree(directory);
        }
    }

    private void refuse(ConfigMap configMap, String source, BundleRefusedException refusal) {
        String running = operator.active(source).map(a -> "bundle " + a.bundle() + " keeps running")
                .orElse("no bundle runs from it");
        LOG.warn("{}; {}", refusal.describe(), running);
        event(configMap, "Warning", "BundleRefused", refusal.describe() + "\n" + running);
        listener.refused(source, refusal);
    }

    private void removed(ConfigMap configMap) {
        String source = source(namespace, configMap.getMetadata().getName());
        handled.remove(source);
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
            case UNCHANGED -> "was already active";
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

    private static void deleteTree(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            LOG.debug("could not delete {}: {}", directory, e.getMessage());
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
