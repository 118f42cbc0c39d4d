package dev.runbook.operator.reload;

import dev.runbook.operator.controller.BundleRefusedException;
import dev.runbook.operator.controller.RunbookOperator;

/** Told what became of each bundle ConfigMap: for metrics and for tests. Called on the reload thread. */
public interface ReloadListener {
    ReloadListener NONE = new ReloadListener() {};

    /** The ConfigMap's bundle runs now (or already did: {@code installed.change()} says). */
    default void accepted(String source, RunbookOperator.Installed installed) {}

    /**
     * The ConfigMap's bundle was refused; the bundle that ran before, if any, still runs.
     *
     * @param bundle the refused bundle's own name ({@link BundleNames#of})
     */
    default void refused(String source, String bundle, BundleRefusedException refusal) {}

    /**
     * The ConfigMap is gone, and so is its bundle: its controller stopped, or, when it overrode a bundle
     * of the operator's image, that bundle runs again ({@code reverted}; null otherwise).
     */
    default void removed(String source, RunbookOperator.Installed reverted) {}
}
