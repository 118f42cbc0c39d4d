package dev.runbook.operator.act;

import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.operator.controller.PrimaryClasses;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.observe.SecondaryInformers;
import dev.runbook.operator.observe.TrimmedCache;
import dev.runbook.rules.fact.ObjectRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.api.reconciler.dependent.RecentOperationCacheFiller;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The primary's writes go through the same read-your-writes mechanism as the secondaries': JOSDK's
 * temporary cache of the informer that hands each cycle its primary (here a recording stand-in for
 * JOSDK's controller event source), as the object the informer would keep, with the version replaced.
 */
class ReadYourWritesTest {
    private static final PrimaryKind WEB_APP = new PrimaryKind(new Kind("test.runbook.dev/v1", "WebApp"), "webapps", true);
    private static final String MANAGER = "runbook-web-app";

    private final KubernetesClient client = new KubernetesClientBuilder()
            .withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").build()).build();
    private final KubeApi api = new KubeApi(client);

    @AfterEach
    void close() {
        client.close();
    }

    /** What JOSDK's event source is told. */
    private static final class Told<P extends GenericKubernetesResource> implements RecentOperationCacheFiller<P> {
        final List<List<Object>> calls = new ArrayList<>();

        @Override
        public void handleRecentResourceCreate(ResourceID id, P resource) {
            calls.add(List.of("create", id, resource));
        }

        @Override
        public void handleRecentResourceUpdate(ResourceID id, P resource, P previous) {
            calls.add(List.of("update", id, resource, previous.getMetadata().getResourceVersion()));
        }
    }

    private <P extends GenericKubernetesResource> ReadYourWrites<P> readYourWrites(Class<P> primaryClass, Told<P> told) {
        SecondaryInformers<P> noSecondaries = new SecondaryInformers<>(List.of(), java.util.Set.of(), List.of(), null, api);
        return new ReadYourWrites<>(noSecondaries, told, WEB_APP, primaryClass, api, new TrimmedCache(MANAGER));
    }

    private static Map<String, Object> shop(String resourceVersion, String phase) {
        return Map.of("apiVersion", "test.runbook.dev/v1", "kind", "WebApp",
                "metadata", Map.of("name", "shop", "namespace", "apps", "resourceVersion", resourceVersion,
                        "managedFields", List.of(Map.of("manager", MANAGER, "operation", "Update"),
                                Map.of("manager", "kubectl", "operation", "Update"))),
                "status", Map.of("phase", phase));
    }

    @Test
    void aStatusWriteOfThePrimaryGoesIntoThePrimaryInformerAsItKeepsObjectsWithTheVersionItReplaced() {
        Class<? extends GenericKubernetesResource> primaryClass = new PrimaryClasses().classFor(WEB_APP);
        checkPrimaryWrite(primaryClass);
    }

    private <P extends GenericKubernetesResource> void checkPrimaryWrite(Class<P> primaryClass) {
        Told<P> told = new Told<>();
        ObjectRef shop = ObjectRef.of("test.runbook.dev/v1", "WebApp", "apps", "shop");

        readYourWrites(primaryClass, told).written(shop, shop("1", "Pending"), shop("2", "Serving"));

        assertThat(told.calls).singleElement().satisfies(call -> {
            assertThat(call.get(0)).isEqualTo("update");
            assertThat(call.get(1)).isEqualTo(new ResourceID("shop", "apps"));
            assertThat(call.get(2)).as("of the class JOSDK reconciles").isInstanceOf(primaryClass);
            P written = primaryClass.cast(call.get(2));
            assertThat(written.getMetadata().getResourceVersion()).isEqualTo("2");
            assertThat(written.getAdditionalProperties()).containsEntry("status", Map.of("phase", "Serving"));
            assertThat(written.getMetadata().getManagedFields()).as("other managers' entries left out, as the informer keeps it")
                    .extracting(e -> e.getManager()).containsExactly(MANAGER);
            assertThat(call.get(3)).as("the version the write replaced").isEqualTo("1");
        });
    }

    @Test
    void aWriteOfAnotherKindNoInformerWatchesIsNotHandedToThePrimaryInformer() {
        Class<? extends GenericKubernetesResource> primaryClass = new PrimaryClasses().classFor(WEB_APP);
        checkOtherKind(primaryClass);
    }

    private <P extends GenericKubernetesResource> void checkOtherKind(Class<P> primaryClass) {
        Told<P> told = new Told<>();
        Map<String, Object> config = Map.of("apiVersion", "v1", "kind", "ConfigMap",
                "metadata", Map.of("name", "shop", "namespace", "apps", "resourceVersion", "5"));

        readYourWrites(primaryClass, told).written(ObjectRef.of("v1", "ConfigMap", "apps", "shop"), null, config);

        assertThat(told.calls).isEmpty();
    }
}
