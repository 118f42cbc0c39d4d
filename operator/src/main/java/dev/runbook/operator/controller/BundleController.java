package dev.runbook.operator.controller;

import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.act.Actor;
import dev.runbook.operator.cycle.ActiveBundle;
import dev.runbook.operator.cycle.CycleListener;
import dev.runbook.operator.cycle.ReconcileCycle;
import dev.runbook.operator.kube.EventWriter;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.record.Recorder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.ResolvedControllerConfiguration;
import io.javaoperatorsdk.operator.api.config.informer.InformerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.processing.retry.GenericRetry;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * Registers one bundle's controller with a JOSDK {@link Operator}: the generated primary class
 * ({@link PrimaryClasses}), a hand-built configuration (JOSDK normally reads it from annotations on
 * the reconciler class, which a bundle does not have), and the {@link RunbookReconciler}.
 */
final class BundleController {
    /** The first retry of a temporary failure comes after this long, then twice as long each time. */
    static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    static final double RETRY_MULTIPLIER = 2;
    /** Retries never wait longer than this, nor longer than the bundle's reconcile period. */
    static final Duration LONGEST_RETRY = Duration.ofMinutes(5);

    private BundleController() {}

    /** {@code runbook-NAME}: unique per bundle, as JOSDK requires of controller names. */
    static String controllerName(CompiledBundle bundle) {
        return "runbook-" + bundle.name();
    }

    /** @return the reconciler, to re-reconcile every primary after a swap of {@code active}'s bundle */
    static <P extends GenericKubernetesResource> RunbookReconciler<P> register(Operator operator, Class<P> primaryClass,
                                                                              ActiveBundle active, Set<String> namespaces,
                                                                              KubeApi api, Clock clock,
                                                                              CycleListener listener, Policy policy) {
        CompiledBundle bundle = active.current().bundle();
        var spec = bundle.spec();
        String name = controllerName(bundle);
        InformerConfiguration<P> informer = InformerConfiguration.builder(primaryClass)
                .withName(name)
                .withNamespaces(namespaces.isEmpty() ? Constants.DEFAULT_NAMESPACES_SET : namespaces)
                .withOnUpdateFilter(new MetadataChangeFilter())
                .buildForController();
        Duration longest = spec.reconcilePeriod().compareTo(LONGEST_RETRY) < 0 ? spec.reconcilePeriod() : LONGEST_RETRY;
        GenericRetry retry = new GenericRetry()
                .setInitialInterval(FIRST_RETRY.toMillis())
                .setIntervalMultiplier(RETRY_MULTIPLIER)
                .setMaxInterval(Math.max(longest.toMillis(), FIRST_RETRY.toMillis()))
                .withoutMaxAttempts();
        var configuration = new ResolvedControllerConfiguration<>(
                name,
                false, // generation-aware filtering is replaced by MetadataChangeFilter
                RunbookReconciler.class.getCanonicalName(),
                retry,
                null,
                spec.reconcilePeriod(),
                "runbook.dev/" + bundle.name(), // unused: the reconciler has no cleanup, so no finalizer is added
                Map.of(),
                spec.fieldManager(),
                operator.getConfigurationService(),
                informer,
                false,
                null);
        EventWriter events = new EventWriter(api.client());
        ReconcileCycle cycle = new ReconcileCycle(active,
                new Actor(api, events, spec.fieldManager()),
                new Recorder(api, events, spec.fieldManager()),
                clock, listener, policy);
        var reconciler = new RunbookReconciler<>(primaryClass, spec.primary(), spec.secondaries(), cycle, api);
        operator.register(reconciler, configuration);
        return reconciler;
    }
}
