package dev.runbook.operator.controller;

import dev.runbook.operator.observe.MetadataChangeFilter;
import dev.runbook.operator.observe.TrimmedCache;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.config.ConfigurationService;
import io.javaoperatorsdk.operator.api.config.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import io.javaoperatorsdk.operator.api.config.ResolvedControllerConfiguration;

import java.time.Duration;

/**
 * The one place that builds JOSDK's configuration of a bundle's controller, from the bundle's own
 * {@link Registration}. JOSDK normally reads it from annotations on the reconciler class, which a
 * bundle does not have; the rest of the operator asks this class, so a JOSDK upgrade that changes
 * how a configuration is made touches this file alone.
 *
 * <p>It avoids {@link ResolvedControllerConfiguration}'s public constructor of 13 positional
 * arguments (which JOSDK keeps changing): it starts from the protected constructor that takes only
 * the primary class, the name, the reconciler class and the configuration service (everything else at
 * JOSDK's defaults) and sets each of the bundle's settings by name through JOSDK's own
 * {@link ControllerConfigurationOverrider}, which calls that constructor for us.
 */
final class JosdkControllerConfiguration {
    private static final MetadataChangeFilter METADATA_CHANGES = new MetadataChangeFilter();

    private JosdkControllerConfiguration() {}

    /** {@code runbook-NAME}: unique per bundle, as JOSDK requires of controller names. */
    static String controllerName(String bundleName) {
        return "runbook-" + bundleName;
    }

    /**
     * The configuration of bundle {@code bundleName}'s controller of {@code primaryClass}: watching
     * the registration's namespaces (all when it names none), started by the changes
     * {@link MetadataChangeFilter} lets through, reconciling every reconcile period, retrying temporary
     * failures with a short, jittered backoff ({@link TransientBackoff}), and writing with the bundle's field manager.
     */
    static <P extends HasMetadata> ControllerConfiguration<P> of(String bundleName, Registration registration,
                                                                 Class<P> primaryClass, ConfigurationService service) {
        String name = controllerName(bundleName);
        var overrider = ControllerConfigurationOverrider.override(defaults(primaryClass, name, service))
                .withName(name) // the controller's and its primary informer's
                .withGenerationAware(false) // generation-aware filtering is replaced by MetadataChangeFilter
                .withOnUpdateFilter(METADATA_CHANGES::accept)
                .withRetry(new TransientBackoff(registration.reconcilePeriod()))
                .withReconciliationMaxInterval(registration.reconcilePeriod())
                // Used only when the bundle has cleanup rules: then the reconciler is a Cleaner (CleaningReconciler).
                .withFinalizer(dev.runbook.engine.bundle.Cleanup.finalizer(bundleName))
                .withFieldManager(registration.fieldManager())
                .withItemStore(new TrimmedCache(registration.fieldManager()).storeFor(registration.namespaces()));
        if (registration.shardMember() != null) {
            // Sharded: the informer lists, watches and caches this member's primaries alone.
            overrider.withLabelSelector(dev.runbook.operator.shard.ShardLabels.selectorOf(registration.shardMember()));
        }
        if (registration.namespaces().isEmpty()) {
            overrider.watchingAllNamespaces();
        } else {
            overrider.settingNamespaces(registration.namespaces());
        }
        return overrider.build();
    }

    /** JOSDK's defaults for a controller of this primary class, run by {@link RunbookReconciler}. */
    private static <P extends HasMetadata> ControllerConfiguration<P> defaults(Class<P> primaryClass, String name,
                                                                               ConfigurationService service) {
        // The constructor is protected (JOSDK's own annotation reader subclasses it): an empty subclass.
        return new ResolvedControllerConfiguration<>(primaryClass, name, RunbookReconciler.class, service) {};
    }
}
