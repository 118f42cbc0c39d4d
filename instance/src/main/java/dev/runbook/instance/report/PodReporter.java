package dev.runbook.instance.report;

import dev.runbook.postgres.contract.PostgresContract;
import dev.runbook.instance.observe.Observation;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Writes what the instance reports onto its own pod, and nowhere else: the role it runs as and its
 * WAL position as annotations (a JSON merge patch, sent only when they changed), and a problem as a
 * Warning event plus an annotation that says why.
 */
public final class PodReporter {
    private static final int ALREADY_EXISTS = 409;

    private final KubernetesClient client;
    private final String namespace;
    private final String podName;
    private final Clock clock;
    private Map<String, String> lastSent = Map.of();

    public PodReporter(KubernetesClient client, String namespace, String podName, Clock clock) {
        this.client = client;
        this.namespace = namespace;
        this.podName = podName;
        this.clock = clock;
    }

    /** The role ("" removes the annotations) and position; nothing is sent when both are unchanged. */
    public void report(String reportedRole, String lsn) {
        report(reportedRole, lsn, Map.of());
    }

    /** As {@link #report(String, String)}, with more of the instance's own annotations (the WAL archive's report). */
    public void report(String reportedRole, String lsn, Map<String, String> more) {
        Map<String, String> wanted = new LinkedHashMap<>(more);
        wanted.put(PostgresContract.REPORTED_ROLE, reportedRole.isEmpty() ? null : reportedRole);
        wanted.put(PostgresContract.REPLAYED_LSN, reportedRole.isEmpty() || lsn.isEmpty() ? null : lsn);
        wanted.put(PostgresContract.INSTANCE_PROBLEM, null);
        if (wanted.equals(lastSent)) {
            return;
        }
        patchAnnotations(wanted);
        lastSent = wanted;
    }

    /** Once per problem: a Warning event on the pod and the annotation, so kubectl describe shows why. */
    public void problem(String reason, String message) {
        Map<String, String> wanted = new LinkedHashMap<>();
        wanted.put(PostgresContract.REPORTED_ROLE, null);
        wanted.put(PostgresContract.REPLAYED_LSN, null);
        wanted.put(PostgresContract.INSTANCE_PROBLEM, message);
        if (wanted.equals(lastSent)) {
            return;
        }
        patchAnnotations(wanted);
        lastSent = wanted;
        Pod pod = client.pods().inNamespace(namespace).withName(podName).get();
        String now = clock.instant().toString();
        Event event = new EventBuilder()
                .withNewMetadata().withName(podName + "." + UUID.randomUUID().toString().substring(0, 8)).endMetadata()
                .withNewInvolvedObject().withApiVersion("v1").withKind("Pod").withNamespace(namespace).withName(podName)
                    .withUid(pod == null ? null : pod.getMetadata().getUid()).endInvolvedObject()
                .withType("Warning").withReason(reason).withMessage(message)
                .withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                .withNewSource().withComponent("runbook-instance-manager").endSource()
                .build();
        try {
            client.v1().events().inNamespace(namespace).resource(event).create();
        } catch (KubernetesClientException e) {
            // The name is new for each problem, so "already exists" can only be this very event: the client
            // sent the create again after an answer that came too late (a busy API server), and the first
            // one was stored. It is there; nothing is lost.
            if (e.getCode() != ALREADY_EXISTS) {
                throw e;
            }
        }
    }

    /** Sets (or, with a null value, removes) annotations on the instance's own pod: the archive and restore reports. */
    public void annotate(Map<String, String> annotations) {
        client.pods().inNamespace(namespace).withName(podName).patch(PatchContext.of(PatchType.JSON_MERGE), MergePatch.annotations(annotations));
    }

    private void patchAnnotations(Map<String, String> annotations) {
        annotate(annotations);
    }
}
