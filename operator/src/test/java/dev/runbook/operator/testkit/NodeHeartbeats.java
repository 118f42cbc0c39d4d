package dev.runbook.operator.testkit;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The heartbeat of nodes a test makes itself, which no kubelet or kwok keeps alive: a Lease in
 * {@value #NAMESPACE} per node, renewed every {@link #RENEW}, as a kubelet renews its own. Without it the
 * node lifecycle controller of a real control plane marks such a node's Ready condition Unknown once
 * its grace period (50 s by default) has passed since the test last wrote the node's status, whatever
 * the test meant that node to be: a test that runs longer than that on a loaded machine would see a
 * node it keeps Ready go Unknown. The Leases are owned by their nodes, so deleting a node deletes its
 * Lease. On the embedded server (no node controller) they are written all the same and do nothing.
 */
public final class NodeHeartbeats implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeHeartbeats.class);
    public static final String NAMESPACE = "kube-node-lease";
    /** A kubelet's default: renewed every 10 s, for 40 s. */
    public static final Duration RENEW = Duration.ofSeconds(10);
    private static final int LEASE_SECONDS = 40;
    /** A Lease's times are MicroTime: exactly six digits of fraction. */
    private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX")
            .withZone(ZoneOffset.UTC);

    private final KubernetesClient client;
    private final List<String> nodes = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "node-heartbeats");
        thread.setDaemon(true);
        return thread;
    });

    public NodeHeartbeats(KubernetesClient client) {
        this.client = client;
        renewer.scheduleWithFixedDelay(this::renewAll, RENEW.toMillis(), RENEW.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Starts the heartbeat of {@code node}, as its kubelet would on registering it. */
    public void start(Node node) {
        String name = node.getMetadata().getName();
        client.leases().inNamespace(NAMESPACE).resource(new LeaseBuilder().withNewMetadata().withName(name)
                        .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("v1").withKind("Node").withName(name)
                                .withUid(node.getMetadata().getUid()).build())
                        .endMetadata()
                        .withNewSpec().withHolderIdentity(name).withLeaseDurationSeconds(LEASE_SECONDS)
                        .withRenewTime(ZonedDateTime.now(ZoneOffset.UTC)).endSpec().build())
                .createOr(existing -> existing.update());
        nodes.add(name);
    }

    private void renewAll() {
        for (String node : nodes) {
            try {
                client.leases().inNamespace(NAMESPACE).withName(node).patch(PatchContext.of(PatchType.JSON_MERGE),
                        "{\"spec\":{\"renewTime\":\"" + MICRO_TIME.format(Instant.now()) + "\"}}");
            } catch (KubernetesClientException e) {
                // Tried again at the next renewal, well within the node controller's grace period.
                LOG.debug("lease of node {} not renewed: {}", node, e.getMessage());
            }
        }
    }

    /** Stops renewing; the Leases go with their nodes. */
    @Override
    public void close() {
        renewer.shutdownNow();
    }
}
