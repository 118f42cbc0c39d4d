package dev.runbook.operator.shard;

import dev.runbook.operator.leader.LeaderElection;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.SteppedClock;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Membership read from the members' Leases on an API server: held, released, expired, foreign. */
@RunbookIT
class MembershipIT {
    private static final LeaderElection.Timing TIMING = TestCluster.LEADER_ELECTION;

    @TestNamespace("shards")
    String namespace;

    @Test
    void aMemberIsLiveWhileItHoldsItsLeaseAndGoneOnceItReleasesIt(KubernetesClient client) {
        Membership membership = new Membership(client, namespace, TIMING, Clock.systemUTC());
        AtomicBoolean aActs = new AtomicBoolean();
        try (LeaderElection a = membership.memberLease(LeaderElection.leaseClient(client, TIMING), "replica-a", candidate(aActs));
             LeaderElection b = membership.memberLease(LeaderElection.leaseClient(client, TIMING), "replica-b", candidate(new AtomicBoolean()))) {
            a.start();
            b.start();
            await().atMost(TestCluster.CONVERGE).untilAsserted(() ->
                    assertThat(membership.live()).containsExactly("replica-a", "replica-b"));
            assertThat(aActs).as("a member acts while it holds its Lease").isTrue();
            a.close();
            assertThat(aActs).as("a member stops acting before it releases its Lease").isFalse();
            await().atMost(TestCluster.CONVERGE).untilAsserted(() ->
                    assertThat(membership.live()).containsExactly("replica-b"));
        }
    }

    @Test
    void aLeaseNotRenewedForItsDurationIsNoLongerAMember(KubernetesClient client) {
        SteppedClock clock = new SteppedClock();
        Membership membership = new Membership(client, namespace, TIMING, clock);
        lease(client, Membership.leaseName("replica-c"), "replica-c", clock);
        assertThat(membership.live()).containsExactly("replica-c");
        clock.advance(Duration.ofSeconds(11)); // the Lease lasts 10 s
        assertThat(membership.live()).isEmpty();
    }

    @Test
    void otherLeasesAreNoMembers(KubernetesClient client) {
        SteppedClock clock = new SteppedClock();
        Membership membership = new Membership(client, namespace, TIMING, clock);
        lease(client, "runbook-operator", "replica-d", clock); // the leader Lease
        lease(client, Membership.leaseName("replica-e"), "someone-else", clock); // a member's Lease held by another
        lease(client, Membership.leaseName("replica-f"), "", clock); // released
        assertThat(membership.live()).isEmpty();
    }

    @Test
    void aMemberNameThatIsNoLabelValueIsRefusedWithTheRule(KubernetesClient client) {
        Membership membership = new Membership(client, namespace, TIMING, Clock.systemUTC());
        assertThatThrownBy(() -> membership.memberLease(client, "replica/a", candidate(new AtomicBoolean())))
                .hasMessageContaining("'replica/a' is not a label value").hasMessageContaining("at most 63");
    }

    private void lease(KubernetesClient client, String name, String holder, Clock clock) {
        client.leases().inNamespace(namespace).resource(new LeaseBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withHolderIdentity(holder).withLeaseDurationSeconds(10)
                .withRenewTime(ZonedDateTime.ofInstant(clock.instant(), ZoneOffset.UTC)).endSpec().build()).create();
    }

    private static LeaderElection.Candidate candidate(AtomicBoolean acting) {
        return new LeaderElection.Candidate() {
            @Override public void lead() { acting.set(true); }
            @Override public void standBy() { acting.set(false); }
        };
    }
}
