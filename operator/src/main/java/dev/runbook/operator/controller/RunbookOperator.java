package dev.runbook.operator.controller;

import dev.runbook.engine.decide.DecidingBundle;
import dev.runbook.engine.policy.ClusterScopedReads;
import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.cycle.ActiveBundle;
import dev.runbook.operator.cycle.CycleListener;
import dev.runbook.operator.error.RootCause;
import dev.runbook.operator.kube.KubeApi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The operator: one JOSDK {@link Operator} per bundle, all on one shared client, each reconciling its
 * bundle's primary kind. One per bundle because JOSDK refuses to register a controller once an
 * operator has started and has no unregister: a bundle is started, stopped and replaced on its own.
 *
 * <p>Bundles are known by their source (a directory, a ConfigMap). {@link #install} puts a new version
 * of a source's bundle in place: when only rules, templates or parameters changed it swaps the bundle
 * under the running controller ({@link ActiveBundle}) and re-reconciles every primary; when what the
 * controller is built from changed ({@link Registration}: the kind, the secondary kinds...) it starts a
 * new controller, and if that fails restarts the old one. One bundle per kind and per name.
 *
 * <p>The client is the caller's: stopping the operator leaves it open.
 */
public final class RunbookOperator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RunbookOperator.class);

    /** What {@link #install} did. */
    public enum Change {
        /** A new source: a new controller. */
        STARTED,
        /** Same controller, new rules: cycles from now on run the new bundle. */
        SWAPPED,
        /** The controller was rebuilt (new kind, secondaries, period, field manager). */
        RESTARTED,
        /** The same version was already active. */
        UNCHANGED
    }

    /** The outcome of an install: what changed and the bundle now active for the source. */
    public record Installed(Change change, ActiveBundle.Loaded active) {}

    private final KubernetesClient client;
    private final KubeApi api;
    private final List<DecidingBundle> initial;
    private final Set<String> namespaces;
    /** The shard member whose primaries alone this operator runs (docs/sharding.md); null for all. */
    private final String shardMember;
    private final Policy policy;
    private final Clock clock;
    private final CycleListener listener;
    private final int reconcileThreads;
    private final PrimaryClasses primaryClasses = new PrimaryClasses();
    private final Map<String, Controller> controllers = new LinkedHashMap<>();
    private boolean started;

    /** A running controller: its bundle (swappable), what it was built from, its JOSDK operator. */
    private record Controller(String source, ActiveBundle active, Registration registration, Operator operator,
                              RunbookReconciler<?> reconciler) {
        Controller withSource(String other) {
            return new Controller(other, active, registration, operator, reconciler);
        }
    }

    /** A builder of an operator on {@code client}, every other setting at its default until named. */
    public static RunbookOperatorBuilder builder(KubernetesClient client) {
        return new RunbookOperatorBuilder(client);
    }

    /** Through {@link #builder}: each parameter is described there. */
    RunbookOperator(KubernetesClient client, List<DecidingBundle> bundles, Set<String> namespaces, Clock clock,
                    CycleListener listener, Policy policy, int reconcileThreads, String shardMember) {
        String problem = ReconcileThreads.problem(reconcileThreads);
        if (problem != null) throw new IllegalArgumentException("reconcile threads " + reconcileThreads + ": " + problem);
        this.reconcileThreads = reconcileThreads;
        this.policy = policy;
        this.client = client;
        this.api = new KubeApi(client);
        this.listener = listener;
        this.initial = List.copyOf(bundles);
        this.namespaces = Set.copyOf(namespaces);
        this.shardMember = shardMember;
        this.clock = clock;
        for (int i = 0; i < initial.size(); i++) {
            for (int j = 0; j < i; j++) {
                String clash = clash(initial.get(i), initial.get(j));
                if (clash != null) throw new IllegalArgumentException(clash);
            }
        }
    }

    /** The administrator's policy this operator checks plans against. */
    public Policy policy() { return policy; }

    /** Starts every initial bundle's controller; returns once their informers have synced. */
    public synchronized void start() {
        start(Map.of());
    }

    /**
     * Starts every initial bundle's controller, and those of {@code accepted}: bundles accepted before from
     * other sources (ConfigMaps), by source. One named like an initial bundle runs in its place from the
     * start (as {@link #install} would have it run); one that cannot run (it clashes with another, its
     * controller cannot start) is left out with a warning, and the initial bundle runs instead. Returns
     * once the informers have synced.
     */
    public synchronized void start(Map<String, DecidingBundle> accepted) {
        try {
            Map<String, DecidingBundle> others = new LinkedHashMap<>(accepted);
            for (DecidingBundle bundle : initial) {
                var override = others.entrySet().stream().filter(e -> e.getValue().name().equals(bundle.name())).findFirst();
                Controller controller = null;
                if (override.isPresent()) {
                    others.remove(override.get().getKey());
                    controller = startAccepted(override.get().getKey(), override.get().getValue());
                }
                if (controller == null) controller = startController(bundle.source().origin(), new ActiveBundle(bundle));
                controllers.put(controller.source(), controller);
            }
            for (var entry : others.entrySet()) {
                String clash = controllers.values().stream().map(c -> clash(entry.getValue(), c.active().current().bundle()))
                        .filter(java.util.Objects::nonNull).findFirst().orElse(null);
                if (clash != null) {
                    LOG.warn("{}: the bundle accepted before does not run: {}", entry.getKey(), clash);
                    continue;
                }
                Controller controller = startAccepted(entry.getKey(), entry.getValue());
                if (controller != null) controllers.put(entry.getKey(), controller);
            }
            controllers.values().forEach(controller -> controller.active().current().bundle().hold());
            started = true;
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Puts {@code bundle} in place as the bundle of {@code source}, which must already be compiled and
     * checked. A bundle with the name of one the operator was started with (from the image) overrides
     * it: it takes over that bundle's controller, until {@link #remove} gives it back.
     *
     * @throws BundleRefusedException when another source's bundle has the same kind or name, or a new
     *                                controller cannot start; what ran before keeps running
     */
    public synchronized Installed install(String source, DecidingBundle bundle) {
        if (!started) throw new IllegalStateException("start the operator before installing bundles");
        Controller existing = controllers.get(source);
        if (existing != null) {
            String running = existing.active().current().bundle().name();
            if (!running.equals(bundle.name()) && overrides(source, running)) {
                throw new BundleRefusedException(source + ": refused: it overrides bundle " + running
                        + " of the operator's own, and a new name (" + bundle.name() + ") would leave " + running
                        + " without a controller: keep the name, or delete the ConfigMap (" + running
                        + " then runs from " + original(running).orElseThrow().source().origin() + " again) and ship "
                        + bundle.name() + " in another");
            }
        }
        if (existing == null) existing = overridable(bundle.name()).orElse(null);
        for (Controller other : controllers.values()) {
            if (other == existing) continue;
            String clash = clash(bundle, other.active().current().bundle());
            if (clash != null) throw new BundleRefusedException(source + ": refused: " + clash + " (from " + other.source() + ")");
        }
        if (existing == null) {
            controllers.put(source, startOrRefuse(source, new ActiveBundle(bundle), "start"));
            bundle.hold();
            return new Installed(Change.STARTED, controllers.get(source).active().current());
        }
        if (!existing.source().equals(source)) {
            LOG.info("{}: bundle {} overrides the one from {}", source, bundle, existing.source());
        }
        return replace(existing, source, bundle);
    }

    /**
     * Stops the controller of {@code source}, if any. When the source overrode a bundle the operator was
     * started with, that bundle runs again instead, and is returned.
     */
    public synchronized Optional<Installed> remove(String source) {
        Controller controller = controllers.get(source);
        if (controller == null) return Optional.empty();
        Optional<DecidingBundle> original = original(controller.active().current().bundle().name());
        if (original.isPresent() && !original.get().source().origin().equals(source)) {
            LOG.info("{}: gone: bundle {} from {} runs again", source, original.get(), original.get().source().origin());
            return Optional.of(replace(controller, original.get().source().origin(), original.get()));
        }
        controllers.remove(source);
        stop(controller);
        release(controller.active().current().bundle());
        return Optional.empty();
    }

    /** The bundle of that name the operator was started with. */
    private Optional<DecidingBundle> original(String name) {
        return initial.stream().filter(b -> b.name().equals(name)).findFirst();
    }

    /** Whether {@code source} runs, in place of the operator's own bundle of that name, a bundle named so. */
    private boolean overrides(String source, String name) {
        return original(name).filter(b -> !b.source().origin().equals(source)).isPresent();
    }

    /** The controller of a bundle the operator was started with, by name, while it runs from its directory. */
    private Optional<Controller> overridable(String name) {
        return original(name).map(b -> controllers.get(b.source().origin()));
    }

    /** Runs {@code bundle} in {@code existing}'s place, under {@code source}: a swap, or a new controller. */
    private Installed replace(Controller existing, String source, DecidingBundle bundle) {
        Registration registration = Registration.of(bundle.spec(), namespaces, shardMember);
        DecidingBundle running = existing.active().current().bundle();
        Installed installed;
        Controller next;
        if (running.version().equals(bundle.version()) && running.spec().equals(bundle.spec())) {
            next = existing.withSource(source);
            installed = new Installed(Change.UNCHANGED, existing.active().current());
        } else if (registration.equals(existing.registration())) {
            ActiveBundle.Loaded loaded = existing.active().swap(bundle);
            existing.reconciler().reconcileAll();
            next = existing.withSource(source);
            installed = new Installed(Change.SWAPPED, loaded);
            bundle.hold();
            release(running);
        } else {
            LOG.info("{}: bundle {} changes the controller's {}: restarting it", source, bundle,
                    registration.differencesFrom(existing.registration()));
            stop(existing);
            ActiveBundle successor = existing.active().successor(bundle);
            try {
                next = startOrRefuse(source, successor, "restart");
            } catch (BundleRefusedException e) {
                controllers.put(existing.source(), startController(existing.source(), existing.active()));
                throw e;
            }
            installed = new Installed(Change.RESTARTED, successor.current());
            bundle.hold();
            release(running);
        }
        controllers.remove(existing.source());
        controllers.put(source, next);
        return installed;
    }

    /** The bundles running now, in the order they were started. */
    public synchronized List<DecidingBundle> bundles() {
        return controllers.values().stream().map(c -> c.active().current().bundle()).toList();
    }

    /** How many primaries the controllers' informers hold now; with sharding, those labelled with this member. */
    public synchronized long primariesCached() {
        return controllers.values().stream().mapToLong(c -> c.reconciler().primariesCached()).sum();
    }

    /** The bundle running now for {@code source}. */
    public synchronized Optional<ActiveBundle.Loaded> active(String source) {
        return Optional.ofNullable(controllers.get(source)).map(c -> c.active().current());
    }

    /** Why the operator is not ready: a controller not started or an informer not healthy; empty when ready. */
    public synchronized List<String> notReady() {
        if (!started) return List.of("the controllers have not started");
        List<String> reasons = new ArrayList<>();
        for (Controller controller : controllers.values()) {
            var info = controller.operator().getRuntimeInfo();
            if (!info.isStarted()) {
                reasons.add(controller.source() + ": controller not started");
            } else if (!info.allEventSourcesAreHealthy()) {
                reasons.add(controller.source() + ": unhealthy event sources " + info.unhealthyEventSources().keySet());
            }
        }
        return reasons;
    }

    /** Stops every controller; the client stays open. */
    @Override
    public synchronized void close() {
        RuntimeException first = null;
        for (Controller controller : controllers.values()) {
            try {
                controller.operator().stop();
            } catch (RuntimeException e) {
                if (first == null) first = e; else first.addSuppressed(e);
            }
        }
        controllers.values().forEach(controller -> release(controller.active().current().bundle()));
        controllers.clear();
        started = false;
        if (first != null) throw first;
    }

    /**
     * Lets a bundle go that no controller runs any more: its worker process, if it has one, ends once the
     * cycles running on it are done (a replica that leads again holds the bundles it starts with anew).
     */
    private static void release(DecidingBundle bundle) {
        try {
            bundle.release();
        } catch (RuntimeException e) {
            LOG.warn("bundle {}: could not release it: {}", bundle, RootCause.message(e));
        }
    }

    /** Why two bundles cannot run side by side, or null when they can. */
    private static String clash(DecidingBundle bundle, DecidingBundle other) {
        if (bundle.name().equals(other.name())) {
            return "two bundles are named " + bundle.name() + ": bundle names must differ";
        }
        if (bundle.spec().primary().kind().equals(other.spec().primary().kind())) {
            return "bundle " + bundle.name() + " reconciles " + bundle.spec().primary().kind()
                    + ", which bundle " + other.name() + " already reconciles: one bundle per kind";
        }
        return null;
    }

    /** The controller of a bundle accepted before, or null (with a warning) when it cannot start. */
    private Controller startAccepted(String source, DecidingBundle bundle) {
        try {
            return startController(source, new ActiveBundle(bundle));
        } catch (RuntimeException e) {
            LOG.warn("{}: the bundle {} accepted before cannot start: {}", source, bundle, RootCause.message(e));
            return null;
        }
    }

    private Controller startOrRefuse(String source, ActiveBundle active, String verb) {
        String unreadable = ClusterScopedReads.refusal(active.current().bundle().spec(), policy);
        if (unreadable != null) throw new BundleRefusedException(source + ": refused: " + unreadable);
        try {
            return startController(source, active);
        } catch (RuntimeException e) {
            throw new BundleRefusedException(source + ": refused: cannot " + verb + " a controller for "
                    + active.current().bundle().spec().primary().kind() + ": " + RootCause.message(e)
                    + " (is its CRD installed, and may the operator list and watch it?)");
        }
    }

    private Controller startController(String source, ActiveBundle active) {
        var spec = active.current().bundle().spec();
        String unreadable = ClusterScopedReads.refusal(spec, policy);
        if (unreadable != null) throw new IllegalArgumentException(unreadable);
        api.register(spec.primary());
        Class<? extends GenericKubernetesResource> primaryClass = primaryClasses.classFor(spec.primary());
        // The primary's watch events are read as its class at once. Otherwise fabric8 reads each one as a
        // generic resource and then converts it to the class the informer asked for: a second Jackson pass over
        // every event of every primary (5.6% of the operator's CPU while 100 clusters converged).
        client.getKubernetesSerialization().registerKubernetesResource(primaryClass);
        Operator operator = new Operator(o -> o.withKubernetesClient(client)
                .withCloseClientOnStop(false)
                .withMetrics(listener.controllerMetrics(spec.name()))
                .withUseSSAToPatchPrimaryResource(false)
                .withConcurrentReconciliationThreads(reconcileThreads));
        try {
            RunbookReconciler<?> reconciler = register(operator, primaryClass, active);
            operator.start();
            return new Controller(source, active, Registration.of(spec, namespaces, shardMember), operator, reconciler);
        } catch (RuntimeException e) {
            try {
                operator.stop();
            } catch (RuntimeException stopping) {
                e.addSuppressed(stopping);
            }
            throw e;
        }
    }

    private <P extends GenericKubernetesResource> RunbookReconciler<P> register(Operator operator, Class<P> primaryClass,
                                                                               ActiveBundle active) {
        return BundleController.register(operator, primaryClass, active, namespaces, shardMember, api, clock, listener, policy);
    }

    private static void stop(Controller controller) {
        try {
            controller.operator().stop();
        } catch (RuntimeException e) {
            LOG.warn("{}: stopping its controller failed: {}", controller.source(), RootCause.message(e));
        }
    }
}
