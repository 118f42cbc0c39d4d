package dev.runbook.operator.kube;

import dev.runbook.rules.fact.ObjectRef;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;

/**
 * Records Kubernetes Events (core/v1) about objects, the way kubectl shows them. Events with the same
 * object, type, reason and message are aggregated as Kubernetes' own recorder does: one Event whose
 * {@code count} grows and whose {@code lastTimestamp} moves, instead of a new object each time.
 */
public final class EventWriter {
    /** The component named as the source of the operator's events. */
    public static final String COMPONENT = "runbook-operator";
    /** Longer messages are cut here (the API server refuses very long event messages). */
    static final int MAX_MESSAGE = 1024;
    /** The namespace of events about cluster-scoped objects. */
    static final String CLUSTER_EVENTS_NAMESPACE = "default";

    private final KubernetesClient client;

    public EventWriter(KubernetesClient client) {
        this.client = client;
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
        String namespace = involved.getNamespace().isEmpty() ? CLUSTER_EVENTS_NAMESPACE : involved.getNamespace();
        String text = message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE - 3) + "..." : message;
        String name = involved.getName() + "." + hash(involved + "|" + uid + "|" + component + "|" + type + "|" + reason + "|" + text);
        String time = now.toString();
        var events = client.v1().events().inNamespace(namespace);
        Event existing = events.withName(name).get();
        if (existing != null) {
            int count = existing.getCount() == null ? 1 : existing.getCount();
            events.withName(name).edit(e -> new EventBuilder(e).withCount(count + 1).withLastTimestamp(time).build());
            return;
        }
        events.resource(new EventBuilder()
                .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
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
                .build()).create();
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
