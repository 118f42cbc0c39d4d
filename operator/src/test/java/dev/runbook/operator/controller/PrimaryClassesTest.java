package dev.runbook.operator.controller;

import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.bundle.PrimaryKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.ReconcilerUtils;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PrimaryClassesTest {
    static final PrimaryKind POSTGRES = new PrimaryKind(new Kind("postgres.runbook.dev/v1alpha1", "PostgresCluster"),
            "postgresclusters", true);
    static final PrimaryKind CLUSTER_SCOPED = new PrimaryKind(new Kind("infra.runbook.dev/v1", "Tenant"), "tenants", false);

    final PrimaryClasses classes = new PrimaryClasses();

    @Test
    void theClassNamesTheKindTheWayFabric8AndJosdkReadIt() {
        Class<? extends GenericKubernetesResource> type = classes.classFor(POSTGRES);

        assertThat(HasMetadata.getGroup(type)).isEqualTo("postgres.runbook.dev");
        assertThat(HasMetadata.getVersion(type)).isEqualTo("v1alpha1");
        assertThat(HasMetadata.getApiVersion(type)).isEqualTo("postgres.runbook.dev/v1alpha1");
        assertThat(HasMetadata.getKind(type)).isEqualTo("PostgresCluster");
        assertThat(HasMetadata.getPlural(type)).isEqualTo("postgresclusters");
        assertThat(Namespaced.class).isAssignableFrom(type);
        assertThat(ReconcilerUtils.getResourceTypeName(type)).isEqualTo("postgresclusters.postgres.runbook.dev");
        assertThat(GroupVersionKind.gvkFor(type).apiVersion()).isEqualTo("postgres.runbook.dev/v1alpha1");
    }

    @Test
    void aClusterScopedKindIsNotNamespaced() {
        assertThat(Namespaced.class.isAssignableFrom(classes.classFor(CLUSTER_SCOPED))).isFalse();
        assertThat(HasMetadata.getPlural(classes.classFor(CLUSTER_SCOPED))).isEqualTo("tenants");
    }

    @Test
    void theSameKindGetsTheSameClassAndAnotherKindAnother() {
        assertThat(classes.classFor(POSTGRES)).isSameAs(classes.classFor(POSTGRES));
        assertThat(classes.classFor(CLUSTER_SCOPED)).isNotSameAs(classes.classFor(POSTGRES));
        assertThat(new PrimaryClasses().classFor(POSTGRES)).isNotSameAs(classes.classFor(POSTGRES));
    }

    @Test
    void specAndStatusTravelThroughTheAdditionalPropertiesUnchanged() {
        Class<? extends GenericKubernetesResource> type = classes.classFor(POSTGRES);
        KubernetesSerialization serialization = new KubernetesSerialization();
        String json = "{\"apiVersion\":\"postgres.runbook.dev/v1alpha1\",\"kind\":\"PostgresCluster\","
                + "\"metadata\":{\"name\":\"pg\",\"namespace\":\"demo\"},"
                + "\"spec\":{\"instances\":3},\"status\":{\"phase\":\"Healthy\",\"conditions\":[{\"type\":\"Ready\"}]}}";

        GenericKubernetesResource read = serialization.unmarshal(json, type);

        assertThat(read).isInstanceOf(type);
        assertThat(read.getMetadata().getName()).isEqualTo("pg");
        assertThat(read.<Integer>get("spec", "instances")).isEqualTo(3);
        assertThat(read.<String>get("status", "phase")).isEqualTo("Healthy");
        Map<?, ?> back = serialization.convertValue(read, Map.class);
        assertThat(back).isEqualTo(serialization.unmarshal(json, Map.class));
        assertThat(serialization.clone(read)).isInstanceOf(type).isEqualTo(read);
    }

    @Test
    void aCoreKindCannotBeAPrimary() {
        PrimaryKind core = new PrimaryKind(new Kind("v1", "ConfigMap"), "configmaps", true);
        assertThatThrownBy(() -> classes.classFor(core)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("group/version");
    }
}
