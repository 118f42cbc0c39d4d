package dev.runbook.operator.controller;

import dev.runbook.engine.decide.DecidingBundle;
import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.act.Actor;
import dev.runbook.operator.error.ConflictRetry;
import dev.runbook.operator.cycle.ActiveBundle;
import dev.runbook.operator.cycle.CycleListener;
import dev.runbook.operator.cycle.ReconcileCycle;
import dev.runbook.operator.kube.EventWriter;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.observe.TrimmedCache;
import dev.runbook.operator.record.Recorder;
import dev.runbook.operator.shard.LabelPatches;
import dev.runbook.operator.shard.ShardGate;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.javaoperatorsdk.operator.Operator;

import java.time.Clock;
import java.util.Set;

/**
 * Registers one bundle's controller with a JOSDK {@link Operator}: the generated primary class
 * ({@link PrimaryClasses}), its configuration ({@link JosdkControllerConfiguration}, built from the
 * bundle's {@link Registration}), and the {@link RunbookReconciler}.
 */
final class BundleController {
    private BundleController() {}

    /** {@code runbook-NAME}: unique per bundle, as JOSDK requires of controller names. */
    static String controllerName(DecidingBundle bundle) {
        return JosdkControllerConfiguration.controllerName(bundle.name());
    }

    /** @return the reconciler, to re-reconcile every primary after a swap of {@code active}'s bundle */
    static <P extends GenericKubernetesResource> RunbookReconciler<P> register(Operator operator, Class<P> primaryClass,
                                                                              ActiveBundle active, Set<String> namespaces,
                                                                              String shardMember,
                                                                              KubeApi api, Clock clock,
                                                                              CycleListener listener, Policy policy) {
        DecidingBundle bundle = active.current().bundle();
        var spec = bundle.spec();
        var configuration = JosdkControllerConfiguration.of(bundle.name(), Registration.of(spec, namespaces, shardMember),
                primaryClass, operator.getConfigurationService());
        TrimmedCache trimmed = new TrimmedCache(spec.fieldManager());
        EventWriter events = new EventWriter(api.client());
        ShardGate gate = shardMember == null ? ShardGate.ALL : ShardGate.of(shardMember,
                new LabelPatches(api.client(), spec.primary().kind().apiVersion(), spec.primary().kind().kind()));
        ReconcileCycle cycle = new ReconcileCycle(active,
                new Actor(api, events, spec.fieldManager(), ConflictRetry.DEFAULT, gate.stamp()),
                new Recorder(api, events, spec.fieldManager(), spec.primary().kind().toString()),
                clock, listener, policy);
        var reconciler = spec.hasCleanup()
                ? new CleaningReconciler<>(primaryClass, spec.primary(), spec.secondaries(), cycle, api, trimmed, namespaces, gate)
                : new RunbookReconciler<>(primaryClass, spec.primary(), spec.secondaries(), cycle, api, trimmed, namespaces, gate);
        operator.register(reconciler, configuration);
        return reconciler;
    }
}
