package dev.runbook.operator.health;

import dev.runbook.operator.kube.EventWriter;
import dev.runbook.rules.fact.ObjectRef;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import dev.runbook.operator.leader.Leases;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Two operators that act on the same cluster without leader election double every action, and nothing
 * else would tell. So each operator that acts keeps a presence Lease in its own namespace
 * ({@code runbook-presence-IDENTITY}, label {@value #LABEL}), renewed every {@link #PERIOD}, and looks
 * at the others': a fresh one from another identity is warned about (a log line, a Warning event
 * {@value #REASON} on that Lease, and the gauge {@value #METRIC}). A standby replica under leader
 * election does not act, so it keeps no presence Lease and is never counted.
 *
 * <p>Sharded replicas (docs/sharding.md) all act, each on its own share: a member's presence Lease carries
 * the label {@value #SHARD_MEMBER} with its member name, and a member does not count the other members of
 * the ring (their shares are disjoint by the ring's labels). It still counts an unsharded operator, which
 * acts on every primary, and an unsharded operator counts every member.
 */
public final class OperatorPresence {
    private static final Logger LOG = LoggerFactory.getLogger(OperatorPresence.class);
    public static final String LABEL = "runbook.dev/operator-presence";
    public static final String REASON = "AnotherOperatorActing";
    public static final String METRIC = "runbook_other_acting_operators";
    /** On the presence Lease of a sharded replica: its member name. */
    public static final String SHARD_MEMBER = "runbook.dev/shard-member";
    public static final Duration PERIOD = Duration.ofSeconds(10);
    /** A presence Lease not renewed for this long belongs to an operator that stopped. */
    public static final Duration LEASE_DURATION = PERIOD.multipliedBy(3);

    private final KubernetesClient client;
    private final String namespace;
    private final String identity;
    private final String shardMember;
    private final Clock clock;
    private final EventWriter events;
    private final AtomicInteger others = new AtomicInteger();
    private final Set<String> warned = new LinkedHashSet<>();

    public OperatorPresence(KubernetesClient client, String namespace, String identity, Clock clock, MeterRegistry registry) {
        this(client, namespace, identity, null, clock, registry);
    }

    /** @param shardMember this replica's member name when it is sharded, else null */
    public OperatorPresence(KubernetesClient client, String namespace, String identity, String shardMember, Clock clock,
                            MeterRegistry registry) {
        this.client = client;
        this.namespace = namespace;
        this.identity = identity;
        this.shardMember = shardMember;
        this.clock = clock;
        this.events = new EventWriter(client);
        Gauge.builder(METRIC, others, AtomicInteger::get)
                .description("Other operators acting on this cluster without leader election (presence Leases renewed "
                        + "by another identity); should be 0")
                .register(registry);
    }

    /** The presence Lease's name for an identity: a DNS name. */
    static String leaseName(String identity) {
        return Leases.name("runbook-presence-", identity);
    }

    /** Renews this operator's presence and looks at the others'; returns the other identities acting now. */
    public synchronized List<String> renewAndLook() {
        Instant now = clock.instant();
        var metadata = new LeaseBuilder().withNewMetadata().withName(leaseName(identity)).withNamespace(namespace)
                .addToLabels(LABEL, "true");
        if (shardMember != null) metadata.addToLabels(SHARD_MEMBER, shardMember);
        Lease mine = metadata.endMetadata()
                .withNewSpec().withHolderIdentity(identity).withLeaseDurationSeconds((int) LEASE_DURATION.toSeconds())
                .withRenewTime(ZonedDateTime.ofInstant(now, ZoneOffset.UTC)).endSpec().build();
        client.leases().inNamespace(namespace).resource(mine).fieldManager("runbook-presence").forceConflicts().serverSideApply();
        List<Lease> acting = client.leases().inNamespace(namespace).withLabel(LABEL, "true").list().getItems().stream()
                .filter(lease -> lease.getSpec() != null && !identity.equals(lease.getSpec().getHolderIdentity()))
                .filter(lease -> Leases.held(lease, now, LEASE_DURATION))
                .filter(lease -> shardMember == null || !isShardMember(lease))
                .toList();
        others.set(acting.size());
        for (Lease other : acting) warnOnce(other, now);
        return acting.stream().map(l -> l.getSpec().getHolderIdentity()).toList();
    }

    private static boolean isShardMember(Lease lease) {
        return lease.getMetadata().getLabels() != null && lease.getMetadata().getLabels().containsKey(SHARD_MEMBER);
    }

    private void warnOnce(Lease other, Instant now) {
        String holder = other.getSpec().getHolderIdentity();
        if (!warned.add(holder)) return;
        String message = "another operator (" + holder + ") acts on this cluster besides this one (" + identity
                + "), without leader election: every action is applied twice. Run one operator, or all with --leader-election, or all with --shards";
        LOG.warn(message);
        try {
            events.record(ObjectRef.of("coordination.k8s.io/v1", "Lease", namespace, other.getMetadata().getName()),
                    other.getMetadata().getUid(), "Warning", REASON, message, now);
        } catch (RuntimeException e) {
            LOG.debug("could not record the event: {}", e.getMessage());
        }
    }

    /** Removes this operator's presence Lease: it stops acting. */
    public void withdraw() {
        try {
            client.leases().inNamespace(namespace).withName(leaseName(identity)).delete();
        } catch (RuntimeException e) {
            LOG.debug("could not delete the presence Lease: {}", e.getMessage());
        }
    }
}
