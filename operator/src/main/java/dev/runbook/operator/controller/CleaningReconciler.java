package dev.runbook.operator.controller;

import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.engine.bundle.SecondaryKind;
import dev.runbook.operator.cycle.ReconcileCycle;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.observe.TrimmedCache;
import dev.runbook.operator.shard.ShardGate;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;

import java.util.List;
import java.util.Set;

/**
 * The reconciler of a bundle with cleanup rules. Being a JOSDK {@link Cleaner} is what makes JOSDK
 * put the bundle's finalizer on each primary before its first cycle and hand a deleted primary to
 * {@link #cleanup} instead of dropping it. A cleanup is an ordinary cycle (the rules see the
 * {@code Deleting} fact); the finalizer comes off when the plan's {@code finishCleanup} action is
 * applied by the act phase, like every other action, so JOSDK is never asked to remove it: the
 * decision stays with the rules, and the outcome is recorded like any other.
 */
final class CleaningReconciler<P extends GenericKubernetesResource> extends RunbookReconciler<P> implements Cleaner<P> {

    CleaningReconciler(Class<P> primaryClass, PrimaryKind primaryKind, List<SecondaryKind> secondaries,
                       ReconcileCycle cycle, KubeApi api, TrimmedCache trimmed, Set<String> namespaces, ShardGate gate) {
        super(primaryClass, primaryKind, secondaries, cycle, api, trimmed, namespaces, gate);
    }

    @Override
    public DeleteControl cleanup(P resource, Context<P> context) {
        // Once finishCleanup has removed the finalizer the primary is gone, and JOSDK stops calling.
        return DeleteControl.noFinalizerRemoval().rescheduleAfter(runCycle(resource, context));
    }
}
