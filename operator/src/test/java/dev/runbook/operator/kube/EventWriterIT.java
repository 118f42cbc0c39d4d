package dev.runbook.operator.kube;

import dev.runbook.operator.testkit.CountingClient;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import dev.runbook.rules.fact.ObjectRef;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Events cost one write each, and no read, as long as the writer remembers them. */
@RunbookIT
class EventWriterIT {
    static final Instant T1 = Instant.parse("2026-11-30T09:00:00Z");
    static final Instant T2 = Instant.parse("2026-11-30T09:05:00Z");
    static final Instant T3 = Instant.parse("2026-11-30T09:10:00Z");

    static TestCluster cluster;
    @TestNamespace("events")
    String namespace;

    @Test
    void aRepeatedEventIsCountedWithOnePatchAndNoRead() {
        CountingClient counting = new CountingClient(cluster);
        try (KubernetesClient client = counting.client()) {
            EventWriter writer = new EventWriter(client);
            ObjectRef pod = new ObjectRef("v1", "Pod", namespace, "pg-0");

            writer.record(pod, "uid-1", "Warning", "NotReady", "pg-0 is not ready", T1);
            assertThat(counting.drain()).singleElement().asString().startsWith("POST ");
            writer.record(pod, "uid-1", "Warning", "NotReady", "pg-0 is not ready", T2);
            writer.record(pod, "uid-1", "Warning", "NotReady", "pg-0 is not ready", T3);
            assertThat(counting.drain()).hasSize(2).allSatisfy(request -> assertThat(request).startsWith("PATCH "));

            assertThat(events()).singleElement().satisfies(e -> {
                assertThat(e.getCount()).isEqualTo(3);
                assertThat(e.getFirstTimestamp()).isEqualTo(T1.toString());
                assertThat(e.getLastTimestamp()).isEqualTo(T3.toString());
            });
        }
    }

    @Test
    void anEventNamesTheCycleThatRecordedItAndARepeatTheLatestOne() {
        EventWriter writer = new EventWriter(cluster.client());
        ObjectRef pg = new ObjectRef("postgres.runbook.dev/v1alpha1", "PostgresCluster", namespace, "pg");
        writer.record(pg, null, "Warning", "FailoverStarted", "pg-0 is not ready", EventWriter.COMPONENT,
                java.util.Map.of(EventWriter.CYCLE_ANNOTATION, "a1b2-7"), T1);
        assertThat(events()).singleElement().satisfies(e ->
                assertThat(e.getMetadata().getAnnotations()).containsEntry(EventWriter.CYCLE_ANNOTATION, "a1b2-7"));

        writer.record(pg, null, "Warning", "FailoverStarted", "pg-0 is not ready", EventWriter.COMPONENT,
                java.util.Map.of(EventWriter.CYCLE_ANNOTATION, "a1b2-9"), T2);
        assertThat(events()).singleElement().satisfies(e -> {
            assertThat(e.getCount()).isEqualTo(2);
            assertThat(e.getMetadata().getAnnotations()).containsEntry(EventWriter.CYCLE_ANNOTATION, "a1b2-9");
        });
    }

    @Test
    void anEventRecordedByAnEarlierProcessIsCountedOn() {
        ObjectRef pod = new ObjectRef("v1", "Pod", namespace, "pg-1");
        new EventWriter(cluster.client()).record(pod, null, "Normal", "Promoted", "pg-1 is the primary", T1);

        CountingClient counting = new CountingClient(cluster);
        try (KubernetesClient client = counting.client()) {
            EventWriter restarted = new EventWriter(client);
            restarted.record(pod, null, "Normal", "Promoted", "pg-1 is the primary", T2);
            assertThat(counting.drain()).extracting(request -> request.substring(0, request.indexOf(' ')))
                    .containsExactly("POST", "GET", "PATCH");
            restarted.record(pod, null, "Normal", "Promoted", "pg-1 is the primary", T3);
            assertThat(counting.drain()).extracting(request -> request.substring(0, request.indexOf(' ')))
                    .containsExactly("PATCH");
        }
        assertThat(events()).singleElement().satisfies(e -> assertThat(e.getCount()).isEqualTo(3));
    }

    @Test
    void anEventTheServerNoLongerHasIsRecordedAfresh() {
        ObjectRef pod = new ObjectRef("v1", "Pod", namespace, "pg-2");
        EventWriter writer = new EventWriter(cluster.client());
        writer.record(pod, null, "Normal", "Fenced", "pg-2 is fenced", T1);
        cluster.client().v1().events().inNamespace(namespace).delete(); // as the server's event TTL would

        writer.record(pod, null, "Normal", "Fenced", "pg-2 is fenced", T2);
        assertThat(events()).singleElement().satisfies(e -> {
            assertThat(e.getCount()).isEqualTo(1);
            assertThat(e.getFirstTimestamp()).isEqualTo(T2.toString());
        });
    }

    private List<Event> events() {
        return cluster.client().v1().events().inNamespace(namespace).list().getItems();
    }
}
