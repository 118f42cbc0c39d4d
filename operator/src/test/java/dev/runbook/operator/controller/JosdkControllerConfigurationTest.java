package dev.runbook.operator.controller;

import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.bundle.PrimaryKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.api.config.BaseConfigurationService;
import io.javaoperatorsdk.operator.api.config.ConfigurationService;
import io.javaoperatorsdk.operator.api.config.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** What JOSDK is told about a bundle's controller, read back through JOSDK's own accessors. */
class JosdkControllerConfigurationTest {
    static final PrimaryKind WEB_APP = new PrimaryKind(new Kind("test.runbook.dev/v1", "WebApp"), "webapps", true);

    final ConfigurationService service = new BaseConfigurationService();
    final Class<? extends GenericKubernetesResource> primaryClass = new PrimaryClasses().classFor(WEB_APP);

    ControllerConfiguration<? extends GenericKubernetesResource> configuration(Duration period, Set<String> namespaces) {
        var registration = new Registration(WEB_APP, List.of(), period, "runbook-web-app", namespaces, false, null);
        return JosdkControllerConfiguration.of("web-app", registration, primaryClass, service);
    }

    @Test
    void theControllerIsNamedAfterTheBundleAndRunsTheRunbookReconcilerForItsPrimaryClass() {
        var configuration = configuration(Duration.ofSeconds(30), Set.of("apps"));

        assertThat(configuration.getName()).isEqualTo("runbook-web-app");
        assertThat(configuration.getInformerConfig().getName()).isEqualTo("runbook-web-app");
        assertThat(configuration.getResourceClass()).isEqualTo(primaryClass);
        assertThat(configuration.getAssociatedReconcilerClassName()).isEqualTo(RunbookReconciler.class.getCanonicalName());
        assertThat(configuration.getConfigurationService()).isSameAs(service);
        assertThat(configuration.getFinalizerName()).isEqualTo("runbook.dev/web-app");
        assertThat(configuration.fieldManager()).isEqualTo("runbook-web-app");
        assertThat(configuration.getWorkflowSpec()).isEmpty();
    }

    @Test
    void itWatchesTheGivenNamespacesOrAllWhenNoneAreGiven() {
        assertThat(configuration(Duration.ofSeconds(30), Set.of("apps", "shop")).getInformerConfig().getNamespaces())
                .containsExactlyInAnyOrder("apps", "shop");
        assertThat(configuration(Duration.ofSeconds(30), Set.of()).getInformerConfig().getNamespaces())
                .isEqualTo(Constants.DEFAULT_NAMESPACES_SET);
    }

    @Test
    void aShardMembersInformerSelectsItsLabelAndAnUnshardedOneSelectsNothing() {
        var sharded = new Registration(WEB_APP, List.of(), Duration.ofSeconds(30), "runbook-web-app", Set.of(), false, "replica-a");
        assertThat(JosdkControllerConfiguration.of("web-app", sharded, primaryClass, service).getInformerConfig().getLabelSelector())
                .isEqualTo("runbook.dev/shard=replica-a");
        assertThat(configuration(Duration.ofSeconds(30), Set.of()).getInformerConfig().getLabelSelector()).isNull();
    }

    @Test
    void everyReconcilePeriodACycleComes() {
        assertThat(configuration(Duration.ofSeconds(45), Set.of()).maxReconciliationInterval()).contains(Duration.ofSeconds(45));
    }

    @Test
    void aStatusOnlyChangeStartsNoCycleButAMetadataChangeDoes() {
        var configuration = configuration(Duration.ofSeconds(30), Set.of());
        assertThat(configuration.isGenerationAware()).as("replaced by MetadataChangeFilter").isFalse();
        @SuppressWarnings({"unchecked", "rawtypes"})
        io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter<GenericKubernetesResource> filter =
                (io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter) configuration.getInformerConfig().getOnUpdateFilter();

        assertThat(filter.accept(app(1, Map.of()), app(1, Map.of()))).as("status only").isFalse();
        assertThat(filter.accept(app(2, Map.of()), app(1, Map.of()))).as("new generation").isTrue();
        assertThat(filter.accept(app(1, Map.of("runbook.dev/paused", "true")), app(1, Map.of()))).as("annotation").isTrue();
    }

    @Test
    void temporaryFailuresAreRetriedWithTheTransientBackoffCappedByTheReconcilePeriod() {
        assertThat(configuration(Duration.ofSeconds(20), Set.of()).getRetry()).isInstanceOfSatisfying(TransientBackoff.class,
                retry -> assertThat(retry.longest()).isEqualTo(Duration.ofSeconds(20)));
        assertThat(configuration(Duration.ofHours(1), Set.of()).getRetry()).isInstanceOfSatisfying(TransientBackoff.class,
                retry -> assertThat(retry.longest()).isEqualTo(TransientBackoff.LONGEST));
    }

    private static GenericKubernetesResource app(long generation, Map<String, String> annotations) {
        var app = new GenericKubernetesResource();
        app.setApiVersion("test.runbook.dev/v1");
        app.setKind("WebApp");
        app.setMetadata(new ObjectMetaBuilder().withName("shop").withNamespace("apps").withGeneration(generation)
                .withAnnotations(annotations).build());
        return app;
    }

    @Test
    void theInformerOfOneNamespaceOrOfAllKeepsTrimmedObjectsAndThatOfSeveralNamespacesWholeOnes() {
        assertThat(configuration(Duration.ofSeconds(30), Set.of("apps")).getInformerConfig().getItemStore())
                .isInstanceOf(io.javaoperatorsdk.operator.processing.event.source.informer.TransformingItemStore.class);
        assertThat(configuration(Duration.ofSeconds(30), Set.of()).getInformerConfig().getItemStore())
                .isInstanceOf(io.javaoperatorsdk.operator.processing.event.source.informer.TransformingItemStore.class);
        assertThat(configuration(Duration.ofSeconds(30), Set.of("apps", "web")).getInformerConfig().getItemStore()).isNull();
    }
}
