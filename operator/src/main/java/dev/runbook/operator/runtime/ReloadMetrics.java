package dev.runbook.operator.runtime;

import dev.runbook.operator.controller.BundleRefusedException;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.metrics.OperatorMetrics;
import dev.runbook.operator.reload.ReloadListener;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reloads as metrics. The {@code bundle} tag is the bundle's own name, for a refusal too (as its
 * bundle.yaml names it, else as the ConfigMap's label does: {@link dev.runbook.operator.reload.BundleNames}),
 * so that an alert on a bundle's name sees its refusals.
 */
final class ReloadMetrics implements ReloadListener {
    private final OperatorMetrics metrics;
    /** The name of the bundle each source last ran. */
    private final Map<String, String> names = new ConcurrentHashMap<>();

    ReloadMetrics(OperatorMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void accepted(String source, RunbookOperator.Installed installed) {
        var bundle = installed.active().bundle();
        String previous = names.put(source, bundle.name());
        if (previous != null && !previous.equals(bundle.name())) metrics.bundleRemoved(previous);
        if (installed.change() != RunbookOperator.Change.UNCHANGED) metrics.reloadAccepted(bundle.name());
        metrics.bundleActivated(bundle.name(), bundle.version(), installed.active().generation());
    }

    @Override
    public void refused(String source, String bundle, BundleRefusedException refusal) {
        metrics.reloadRefused(bundle);
    }

    @Override
    public void removed(String source, RunbookOperator.Installed reverted) {
        String name = names.remove(source);
        if (reverted != null) {
            var bundle = reverted.active().bundle();
            metrics.bundleActivated(bundle.name(), bundle.version(), reverted.active().generation());
        } else if (name != null) {
            metrics.bundleRemoved(name);
        }
    }
}
