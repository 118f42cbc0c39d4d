package dev.runbook.operator.kube;

import dev.runbook.rules.fact.ObjectRef;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;

/**
 * Records Kubernetes Events (core/v1) about objects, the way kubectl shows them. Events with the same
 * object, type, reason and message are aggregated as Kubernetes' own recorder does: one Event whose
 * {@code count} grows and whose {@code lastTimestamp} moves, instead of a new object each time.
 *
 * <p>One request per event, never a read first: like client-go's event correlator, the writer remembers
 * the events it recorded ({@link RecordedEvents}), so a repeat is a merge patch of the count and the
 * time, and a new one a create. Only what the memory cannot know costs more: an event recorded by an
 * earlier process (the create answers 409, then it is read once and counted on), or one the API server
 * has expired since (the patch answers 404, then it is created afresh).
 */
public final class EventWriter {
    /** The component named as the source of the operator's events. */
    public static final String COMPONENT = "runbook-operator";
    /**
     * The annotation on the events of a cycle (the changes it made, the events its rules asked for) with the
     * cycle's id, as its log line names it: the key to its decision in the history (docs/why.md).
     */
    public static final String CYCLE_ANNOTATION = "runbook.dev/cycle";
    /** Longer messages are cut here (the API server refuses very long event messages). */
    public static final int MAX_MESSAGE = 1024;
    /** The namespace of events about cluster-scoped objects. */
    static final String CLUSTER_EVENTS_NAMESPACE = "default";
    private static final int ALREADY_EXISTS = 409;
    private static final int NOT_FOUND = 404;

    private final KubernetesClient client;
    private final RecordedEvents recorded;

    public EventWriter(KubernetesClient client) {
        this(client, new RecordedEvents(RecordedEvents.DEFAULT_CAPACITY));
    }

    EventWriter(KubernetesClient client, RecordedEvents recorded) {
        this.client = client;
        this.recorded = recorded;
    }

    /**
     * Records the event, or counts it once more when the same one was recorded before.
     *
     * @param uid the object's uid when known, else null
     * @param type {@code Normal} or {@code Warning}
     */
    public void record(ObjectRef involved, String uid, String type, String reason, String message, Instant now) {
        record(involved, uid, type, reason, message, COMPONENT, now);
    }

    /** The same, reported by another component (e.g. a simulated {@code statefulset-controller}). */
    public void record(ObjectRef involved, String uid, String type, String reason, String message, String component,
                       Instant now) {
        record(involved, uid, type, reason, message, component, Map.of(), now);
    }

    /**
     * The same, with annotations on the Event (e.g. the cycle that announced a change); a repeat sets them
     * to these values, so an aggregated event names its latest occurrence's.
     */
    public void record(ObjectRef involved, String uid, String type, String reason, String message, String component,
                       Map<String, String> annotations, Instant now) {
        String namespace = involved.getNamespace().isEmpty() ? CLUSTER_EVENTS_NAMESPACE : involved.getNamespace();
        String text = message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE - 3) + "..." : message;
        String name = involved.getName() + "." + hash(involved + "|" + uid + "|" + component + "|" + type + "|" + reason + "|" + text);
        String key = namespace + "/" + name;
        String time = now.toString();
        Integer count = recorded.count(key);
        if (count != null) {
            try {
                recorded.remember(key, countOnce(namespace, name, count + 1, time, annotations));
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != NOT_FOUND) throw e;
                recorded.forget(key); // expired by the API server since: recorded afresh below
            }
        }
        Event event = new EventBuilder()
                .withNewMetadata().withName(name).withNamespace(namespace)
                    .withAnnotations(annotations.isEmpty() ? null : new java.util.LinkedHashMap<>(annotations)).endMetadata()
                .withNewInvolvedObject()
                    .withApiVersion(involved.getApiVersion())
                    .withKind(involved.getKind())
                    .withNamespace(involved.getNamespace().isEmpty() ? null : involved.getNamespace())
                    .withName(involved.getName())
                    .withUid(uid)
                .endInvolvedObject()
                .withType(type)
                .withReason(reason)
                .withMessage(text)
                .withNewSource().withComponent(component).endSource()
                .withReportingComponent(component)
                .withFirstTimestamp(time)
                .withLastTimestamp(time)
                .withCount(1)
                .build();
        try {
            client.v1().events().inNamespace(namespace).resource(event).create();
            recorded.remember(key, 1);
        } catch (KubernetesClientException e) {
            if (e.getCode() != ALREADY_EXISTS) throw e;
            // Recorded before this process knew of it (a restart, another replica): read once, count on.
            Event existing = client.v1().events().inNamespace(namespace).withName(name).get();
            int before = existing == null || existing.getCount() == null ? 0 : existing.getCount();
            recorded.remember(key, countOnce(namespace, name, before + 1, time, annotations));
        }
    }

    /**
     * Sets the count and the last time of a recorded event: one merge patch; returns the count. The event is
     * named by a stub, else fabric8 would read it before patching it.
     */
    private int countOnce(String namespace, String name, int count, String time, Map<String, String> annotations) {
        Event stub = new EventBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata().build();
        Map<String, Object> patch = new java.util.LinkedHashMap<>();
        patch.put("count", count);
        patch.put("lastTimestamp", time);
        if (!annotations.isEmpty()) patch.put("metadata", Map.of("annotations", annotations));
        client.v1().events().inNamespace(namespace).resource(stub).patch(PatchContext.of(PatchType.JSON_MERGE),
                Serialization.asJson(patch));
        return count;
    }

    private static String hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
