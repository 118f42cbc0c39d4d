package dev.runbook.operator.shard;

import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.SpreadNames;
import dev.runbook.operator.testkit.SteppedClock;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sharder's loop on an API server, tick by tick (the test plays the timer and the clock): members
 * join and die by their Leases, and the loop passes only when there is something to do.
 */
@RunbookIT(crds = {"src/test/resources/bundles/greeter/crds/greeters.test.runbook.dev.yaml",
        "src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml"})
class ShardingLoopIT {
    private static final String API_VERSION = "test.runbook.dev/v1";
    private static final String KIND = "Greeter";
    private static final ShardingLoop.Timing TIMING = new ShardingLoop.Timing(Duration.ofSeconds(2), Duration.ofSeconds(30));

    @TestNamespace("sharding-loop")
    String namespace;

    KubernetesClient client;
    SteppedClock clock = new SteppedClock();
    Membership membership;
    ShardingLoop loop;

    @BeforeEach
    void twentyPrimaries(KubernetesClient client) {
        this.client = client;
        membership = new Membership(client, namespace, TestCluster.LEADER_ELECTION, clock);
        loop = new ShardingLoop(membership, List.of(new Sharder(client, API_VERSION, KIND, Set.of(namespace))), TIMING, clock);
        for (String name : SpreadNames.over("test.runbook.dev", KIND, namespace, "greeter", 20, List.of(Set.of("replica-a", "replica-b")))) {
            client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).resource(new GenericKubernetesResourceBuilder()
                    .withApiVersion(API_VERSION).withKind(KIND).withNewMetadata().withName(name).endMetadata().build()).create();
        }
    }

    @Test
    void aDeadMembersPrimariesGoToTheLiveOnesAtTheFirstTickAfterItsLeaseExpires() {
        renew("replica-a");
        renew("replica-b");
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            loop.tick();
            assertThat(owners().values()).hasSize(20).allMatch(Objects::nonNull);
        });
        assertThat(owners().values()).contains("replica-a", "replica-b");
        await().atMost(TestCluster.CONVERGE).until(() -> !loop.tick());
        assertThat(loop.tick()).as("nothing changed: no pass until the resync").isFalse();

        // b stops renewing; a renews. Within the Lease's 10 s b is still a member: nothing moves.
        clock.advance(Duration.ofSeconds(8));
        renew("replica-a");
        assertThat(loop.tick()).isFalse();
        clock.advance(Duration.ofSeconds(3));
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            loop.tick();
            assertThat(owners().values()).hasSize(20).containsOnly("replica-a");
        });
    }

    @Test
    void aPrimaryCreatedLaterIsAssignedAtTheResync() {
        renew("replica-a");
        await().atMost(TestCluster.CONVERGE).until(() -> !loop.tick() && owners().values().stream().allMatch("replica-a"::equals));
        client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).resource(new GenericKubernetesResourceBuilder()
                .withApiVersion(API_VERSION).withKind(KIND).withNewMetadata().withName("greeter-late").endMetadata().build()).create();
        assertThat(loop.tick()).as("before the resync the loop does not list the primaries").isFalse();
        clock.advance(TIMING.resync());
        renew("replica-a");
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            loop.tick();
            assertThat(owners()).containsEntry("greeter-late", "replica-a");
        });
    }

    @Test
    void aPrimaryKindThatArrivesWithAReloadIsShardedAtTheNextTick() {
        List<Sharder> sharders = new CopyOnWriteArrayList<>(List.of(new Sharder(client, API_VERSION, KIND, Set.of(namespace))));
        ShardingLoop growing = new ShardingLoop(membership, () -> List.copyOf(sharders), TIMING, clock);
        renew("replica-a");
        await().atMost(TestCluster.CONVERGE).until(() -> !growing.tick() && owners().values().stream().allMatch("replica-a"::equals));
        client.genericKubernetesResources(API_VERSION, "WebApp").inNamespace(namespace).resource(new GenericKubernetesResourceBuilder()
                .withApiVersion(API_VERSION).withKind("WebApp").withNewMetadata().withName("app").endMetadata().build()).create();
        assertThat(growing.tick()).as("nothing changed: no pass").isFalse();

        sharders.add(new Sharder(client, API_VERSION, "WebApp", Set.of(namespace)));
        assertThat(growing.tick()).as("a new primary kind: a pass before the resync").isTrue();
        assertThat(owner(client.genericKubernetesResources(API_VERSION, "WebApp").inNamespace(namespace).withName("app").get()))
                .isEqualTo("replica-a");
    }

    private void renew(String member) {
        var lease = new LeaseBuilder().withNewMetadata().withName(Membership.leaseName(member)).withNamespace(namespace).endMetadata()
                .withNewSpec().withHolderIdentity(member).withLeaseDurationSeconds(10)
                .withRenewTime(ZonedDateTime.ofInstant(clock.instant(), ZoneOffset.UTC)).endSpec().build();
        client.leases().inNamespace(namespace).resource(lease).createOr(existing -> existing.update());
    }

    /** Each primary's owner, by name; null when unassigned. */
    private Map<String, String> owners() {
        Map<String, String> owners = new TreeMap<>(); // not Collectors.toMap: it refuses the null of an unassigned primary
        for (GenericKubernetesResource primary : client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).list().getItems()) {
            owners.put(primary.getMetadata().getName(), owner(primary));
        }
        return owners;
    }

    private static String owner(GenericKubernetesResource primary) {
        Map<String, String> labels = primary.getMetadata().getLabels();
        return labels == null ? null : labels.get(ShardLabels.SHARD);
    }
}
