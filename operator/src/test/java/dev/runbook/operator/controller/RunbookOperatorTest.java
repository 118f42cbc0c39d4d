package dev.runbook.operator.controller;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RunbookOperatorTest {
    static final CompiledBundle WEB_APP = BundleCompiler.compile(BundleLoader.load(Path.of("src/test/resources/bundles/web-app")));

    @Test
    void twoBundlesForOneKindAreRefused() {
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                .withMasterUrl("https://127.0.0.1:1").build()).build()) {
            assertThatThrownBy(() -> RunbookOperator.builder(client).bundles(List.of(WEB_APP, WEB_APP)).build())
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("two bundles are named web-app: bundle names must differ");
        }
    }

    @Test
    void anUnreachableClusterStopsTheStart() {
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                .withMasterUrl("https://127.0.0.1:1").withRequestRetryBackoffLimit(0).build()).build();
             RunbookOperator operator = RunbookOperator.builder(client).bundles(List.of(WEB_APP))
                     .namespaces(Set.of("demo")).build()) {
            assertThatThrownBy(operator::start).isInstanceOf(RuntimeException.class);
        }
    }

    @Test
    void thePrimaryKindIsReadAsItsOwnClass() {
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                .withMasterUrl("https://127.0.0.1:1").withRequestRetryBackoffLimit(0).build()).build();
             RunbookOperator operator = RunbookOperator.builder(client).bundles(List.of(WEB_APP))
                     .namespaces(Set.of("demo")).build()) {
            String json = "{\"apiVersion\":\"test.runbook.dev/v1\",\"kind\":\"WebApp\",\"metadata\":{\"name\":\"shop\"},"
                    + "\"spec\":{\"replicas\":2,\"image\":\"nginx\"}}";
            assertThat((Object) client.getKubernetesSerialization().unmarshal(json)).as("before the controller is made")
                    .isExactlyInstanceOf(GenericKubernetesResource.class);
            assertThatThrownBy(operator::start).isInstanceOf(RuntimeException.class); // the controller was made, then could not list

            // As the client reads the primary's watch events: its class at once, with what a generic resource would hold.
            GenericKubernetesResource read = client.getKubernetesSerialization().unmarshal(json);
            assertThat(read.getClass().getName()).startsWith(PrimaryClasses.PACKAGE + ".WebApp");
            assertThat(read.getMetadata().getName()).isEqualTo("shop");
            assertThat(read.getAdditionalProperties()).isEqualTo(Map.of("spec", Map.of("replicas", 2, "image", "nginx")));
        }
    }
}
