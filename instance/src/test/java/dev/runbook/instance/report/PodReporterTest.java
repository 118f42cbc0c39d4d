package dev.runbook.instance.report;

import dev.runbook.postgres.contract.PostgresContract;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@EnableKubernetesMockClient(crud = true)
class PodReporterTest {
    KubernetesClient client;
    KubernetesMockServer server;
    private PodReporter reporter;

    @BeforeEach
    void pods() {
        for (String name : new String[] {"pg-0", "pg-1"}) {
            // createOr: on a loaded machine the client may send a create again after an answer that came
            // too late, and the first one was stored (409). The pods are the same either way.
            client.pods().inNamespace("db").resource(new PodBuilder().withNewMetadata().withName(name).withNamespace("db")
                    .addToLabels("postgres.runbook.dev/role", "replica").addToAnnotations("kept", "yes").endMetadata().build())
                    .createOr(existing -> existing.update());
        }
        reporter = new PodReporter(client, "db", "pg-1", Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC));
    }

    private Pod pod(String name) {
        return client.pods().inNamespace("db").withName(name).get();
    }

    @Test
    void reportsRoleAndPositionOnItsOwnPodOnly() {
        reporter.report("primary", "0/3000060");
        assertThat(pod("pg-1").getMetadata().getAnnotations()).containsEntry("postgres.runbook.dev/reported-role", "primary")
                .containsEntry("postgres.runbook.dev/replayed-lsn", "0/3000060").containsEntry("kept", "yes");
        assertThat(pod("pg-1").getMetadata().getLabels()).as("labels are the operator's").containsEntry("postgres.runbook.dev/role", "replica");
        assertThat(pod("pg-0").getMetadata().getAnnotations()).isEqualTo(Map.of("kept", "yes"));
    }

    @Test
    void sendsNothingWhenNothingChanged() {
        reporter.report("replica", "0/1");
        String version = pod("pg-1").getMetadata().getResourceVersion();
        reporter.report("replica", "0/1");
        assertThat(pod("pg-1").getMetadata().getResourceVersion()).isEqualTo(version);
    }

    @Test
    void anEmptyRoleRemovesTheReport() {
        reporter.report("replica", "0/1");
        reporter.report("", "0/1");
        // null in a merge patch removes the key on an API server; the fabric8 mock keeps it with a null value.
        assertThat(pod("pg-1").getMetadata().getAnnotations().get("postgres.runbook.dev/reported-role")).isNull();
        assertThat(pod("pg-1").getMetadata().getAnnotations().get("postgres.runbook.dev/replayed-lsn")).isNull();
    }

    @Test
    void aProblemIsAnAnnotationAndAWarningEventOnItsPod() {
        reporter.report("primary", "0/1");
        reporter.problem("InstanceRefused", "initdb would start a new, empty database");
        assertThat(pod("pg-1").getMetadata().getAnnotations()).containsEntry(PostgresContract.INSTANCE_PROBLEM, "initdb would start a new, empty database");
        assertThat(pod("pg-1").getMetadata().getAnnotations().get("postgres.runbook.dev/reported-role")).isNull();
        assertThat(pod("pg-1").getMetadata().getAnnotations().get("postgres.runbook.dev/replayed-lsn")).isNull();
        assertThat(client.v1().events().inNamespace("db").list().getItems()).singleElement().satisfies(e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getReason()).isEqualTo("InstanceRefused");
            assertThat(e.getInvolvedObject().getName()).isEqualTo("pg-1");
        });
    }

    @Test
    void anEventCreateAnsweredAlreadyExistsIsNotAFailure() {
        // What a busy API server answers a create the client sent again after the first one was stored:
        // the event is there, and the problem is reported.
        server.expect().post().withPath("/api/v1/namespaces/db/events").andReturn(409, new StatusBuilder().withCode(409)
                .withReason("AlreadyExists").withMessage("events \"pg-1.x\" already exists").build()).once();

        reporter.problem("InstanceRefused", "initdb would start a new, empty database");

        assertThat(pod("pg-1").getMetadata().getAnnotations()).containsEntry(PostgresContract.INSTANCE_PROBLEM, "initdb would start a new, empty database");
    }

    @Test
    void anEventCreateThatFailsOtherwiseIsAFailure() {
        server.expect().post().withPath("/api/v1/namespaces/db/events").andReturn(403, new StatusBuilder().withCode(403)
                .withReason("Forbidden").withMessage("events is forbidden").build()).once();

        assertThatThrownBy(() -> reporter.problem("InstanceRefused", "initdb would start a new, empty database"))
                .isInstanceOf(KubernetesClientException.class).hasMessageContaining("forbidden");
    }
}
