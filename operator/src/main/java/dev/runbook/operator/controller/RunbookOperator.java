package dev.runbook.operator.controller;

import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.operator.cycle.CycleListener;
import dev.runbook.operator.kube.KubeApi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The operator: one JOSDK {@link Operator} per bundle, all on one shared client, each reconciling its
 * bundle's primary kind. One per bundle because JOSDK refuses to register a controller once an
 * operator has started, and a bundle is to be started, stopped and (later) replaced on its own.
 *
 * <p>The client is the caller's: stopping the operator leaves it open.
 */
public final class RunbookOperator implements AutoCloseable {
    private final KubernetesClient client;
    private final List<CompiledBundle> bundles;
    private final Set<String> namespaces;
    private final Clock clock;
    private final CycleListener listener;
    private final PrimaryClasses primaryClasses = new PrimaryClasses();
    private final List<Operator> running = new ArrayList<>();

    /**
     * @param namespaces the namespaces to watch; empty for all of them
     */
    public RunbookOperator(KubernetesClient client, List<CompiledBundle> bundles, Set<String> namespaces, Clock clock) {
        this(client, bundles, namespaces, clock, CycleListener.NONE);
    }

    /**
     * @param namespaces the namespaces to watch; empty for all of them
     * @param listener   told about every recorded cycle
     */
    public RunbookOperator(KubernetesClient client, List<CompiledBundle> bundles, Set<String> namespaces, Clock clock,
                           CycleListener listener) {
        this.client = client;
        this.listener = listener;
        this.bundles = List.copyOf(bundles);
        this.namespaces = Set.copyOf(namespaces);
        this.clock = clock;
        Set<String> names = new HashSet<>();
        Set<String> kinds = new HashSet<>();
        for (CompiledBundle bundle : this.bundles) {
            if (!names.add(bundle.name())) {
                throw new IllegalArgumentException("two bundles are named " + bundle.name() + ": bundle names must differ");
            }
            if (!kinds.add(bundle.spec().primary().kind().toString())) {
                throw new IllegalArgumentException("bundle " + bundle.name() + " reconciles " + bundle.spec().primary().kind()
                        + ", which another bundle already reconciles: one bundle per kind");
            }
        }
    }

    /** Starts every bundle's controller; returns once their informers have synced. */
    public synchronized void start() {
        KubeApi api = new KubeApi(client);
        bundles.forEach(bundle -> api.register(bundle.spec().primary()));
        try {
            for (CompiledBundle bundle : bundles) {
                Operator operator = new Operator(o -> o.withKubernetesClient(client)
                        .withCloseClientOnStop(false)
                        .withUseSSAToPatchPrimaryResource(false));
                register(operator, primaryClasses.classFor(bundle.spec().primary()), bundle, api);
                operator.start();
                running.add(operator);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private <P extends GenericKubernetesResource> void register(Operator operator, Class<P> primaryClass,
                                                                CompiledBundle bundle, KubeApi api) {
        BundleController.register(operator, primaryClass, bundle, namespaces, api, clock, listener);
    }

    public List<CompiledBundle> bundles() { return bundles; }

    /** Stops every controller; the client stays open. */
    @Override
    public synchronized void close() {
        RuntimeException first = null;
        for (Operator operator : running) {
            try {
                operator.stop();
            } catch (RuntimeException e) {
                if (first == null) first = e; else first.addSuppressed(e);
            }
        }
        running.clear();
        if (first != null) throw first;
    }
}
