package dev.runbook.operator.runtime;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.controller.ReconcileThreads;
import dev.runbook.operator.leader.LeaderElection;
import dev.runbook.operator.metrics.OperatorMetrics;
import dev.runbook.operator.shard.CycleRecords;
import dev.runbook.operator.shard.DoubleActors;
import dev.runbook.operator.shard.HashRing;
import dev.runbook.operator.shard.ShardLabels;
import dev.runbook.operator.shard.ShardedWebApps;
import dev.runbook.operator.shard.ShardingLoop;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code runbook run --shards} as the runtime runs it, on an API server: two sharded replicas (each an
 * {@link OperatorRuntime} with its member Lease, the sharder in whichever holds the leader Lease), 20
 * primaries of the greeter bundle. Each primary ends owned by its ring owner and reconciled by it alone;
 * the replica that leads stops, and the other takes the leader Lease and every primary; no two replicas'
 * cycles on one primary ever overlap ({@link DoubleActors}). With the web-app bundle, the primaries'
 * secondaries carry their member's label and move with them, and every member answers the webhook at create.
 */
@RunbookIT(crds = "src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml")
class ShardedRuntimeIT {
    private static final ShardingLoop.Timing LOOP = new ShardingLoop.Timing(Duration.ofMillis(500), Duration.ofSeconds(30));
    static CompiledBundle greeter;
    static CompiledBundle webApp;

    @TestNamespace("system")
    String system;
    @TestNamespace("apps")
    String apps;

    final CycleRecords cycles = new CycleRecords("test.runbook.dev", ShardedWebApps.KIND);
    final Map<String, OperatorMetrics> metrics = new HashMap<>();
    final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeAll
    static void compile() {
        greeter = BundleCompiler.compile(BundleLoader.load(Path.of("src/test/resources/bundles/greeter")));
        webApp = BundleCompiler.compile(BundleLoader.load(Path.of("src/test/resources/bundles/web-app")));
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) closing.get(i).close();
    }

    @Test
    void twoReplicasShareThePrimariesAndTheOneLeftTakesAll(KubernetesClient client) {
        ShardedWebApps primaries = new ShardedWebApps(client, apps);
        primaries.create(20, Set.of("replica-a", "replica-b"));
        Map<String, OperatorRuntime> replicas = new HashMap<>();
        for (String member : List.of("replica-a", "replica-b")) {
            OperatorRuntime replica = runtime(client, member, greeter);
            replica.start();
            replicas.put(member, replica);
        }
        HashRing ring = HashRing.of(replicas.keySet());
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(primaries.all()).hasSize(20).allSatisfy(p -> {
            assertThat(ShardedWebApps.owner(p)).isEqualTo(ring.ownerOf(primaries.keyOf(p)).orElseThrow());
            assertThat(p.getMetadata().getLabels()).doesNotContainKey(ShardLabels.DRAIN);
            assertThat(ShardedWebApps.status(p, "seen")).isEqualTo("1");
        }));
        assertThat(primaries.owners().values()).as("both replicas own a share").contains("replica-a", "replica-b");
        replicas.values().forEach(replica -> assertThat(replica.isActing()).isTrue());
        replicas.values().forEach(replica -> assertThat(replica.notReady()).as("a member acting on its share is ready").isEmpty());
        Map<String, String> shares = primaries.owners();
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            for (String member : replicas.keySet()) {
                long owned = shares.values().stream().filter(member::equals).count();
                assertThat(metrics.get(member).scrape()).as("%s's gauge of the primaries it owns", member)
                        .contains("runbook_shard_primaries " + owned + ".0");
            }
        });
        String leader = leaseHolder(client);
        assertThat(metrics.get(leader).scrape()).as("the leader Lease's holder").contains("runbook_leader 1.0");
        String other = leader.equals("replica-a") ? "replica-b" : "replica-a";
        assertThat(metrics.get(other).scrape()).contains("runbook_leader 0.0");

        Instant bumped = Instant.now();
        primaries.setCounter("2");
        await().atMost(TestCluster.CONVERGE).untilAsserted(() ->
                assertThat(primaries.all()).allSatisfy(p -> assertThat(ShardedWebApps.status(p, "seen")).isEqualTo("2")));
        Map<String, String> owners = primaries.owners();
        assertThat(cycles.membersSince(bumped)).as("after the change, each primary's cycles are its owner's alone")
                .hasSize(20).allSatisfy((primary, members) -> assertThat(members).containsExactly(owners.get(primary)));

        // The leader stops (it stands down, then releases both Leases): the other leads and takes every primary.
        replicas.get(leader).close();
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            assertThat(leaseHolder(client)).isEqualTo(other);
            assertThat(primaries.owners().values()).hasSize(20).containsOnly(other);
        });
        primaries.setCounter("3");
        await().atMost(TestCluster.CONVERGE).untilAsserted(() ->
                assertThat(primaries.all()).allSatisfy(p -> assertThat(ShardedWebApps.status(p, "seen")).isEqualTo("3")));
        assertThat(metrics.get(other).scrape()).contains("runbook_leader 1.0");

        assertThat(cycles.all()).isNotEmpty();
        assertThat(DoubleActors.find(cycles.all())).as("double-owned cycles").isEmpty();
    }

    /**
     * The runtime's sharder moves a bundle's secondaries with their primaries: Secrets created unlabelled
     * (labels naming their primary) end labelled with their primary's member, as does each ConfigMap the act
     * phase applies; when the leader stops, every one of them follows its primary to the member left.
     */
    @Test
    void secondariesCarryTheirPrimarysMemberAndMoveWithIt(KubernetesClient client) {
        ShardedWebApps primaries = new ShardedWebApps(client, apps);
        primaries.create(12, Set.of("replica-a", "replica-b"));
        for (GenericKubernetesResource primary : primaries.all()) {
            client.secrets().inNamespace(apps).resource(new SecretBuilder().withNewMetadata()
                    .withName(primary.getMetadata().getName() + "-user")
                    .addToLabels("app.kubernetes.io/instance", primary.getMetadata().getName()).endMetadata()
                    .addToStringData("password", "x").build()).create();
        }
        Map<String, OperatorRuntime> replicas = new HashMap<>();
        for (String member : List.of("replica-a", "replica-b")) {
            OperatorRuntime replica = runtime(client, member, webApp);
            replica.start();
            replicas.put(member, replica);
        }
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            assertThat(primaries.owners().values()).hasSize(12).contains("replica-a", "replica-b");
            assertThat(secondaryOwners(client, primaries)).as("each secondary carries its primary's member")
                    .containsOnlyKeys(expectedSecondaries(primaries)).allSatisfy((secondary, owners) ->
                            assertThat(owners.get(0)).isEqualTo(owners.get(1)));
        });

        // Every member answers the webhook at create alike: a new primary gets its ring owner among the live members.
        GenericKubernetesResource fresh = new GenericKubernetesResourceBuilder().withApiVersion(ShardedWebApps.API_VERSION)
                .withKind(ShardedWebApps.KIND).withNewMetadata().withName("app-new").withNamespace(apps).endMetadata().build();
        String ringOwner = HashRing.of(replicas.keySet())
                .ownerOf(ShardLabels.keyOf("test.runbook.dev", ShardedWebApps.KIND, apps, "app-new")).orElseThrow();
        replicas.values().forEach(replica -> assertThat(replica.shardAdmission().orElseThrow()
                .shardOf("test.runbook.dev", ShardedWebApps.KIND, apps, fresh)).contains(ringOwner));

        String leader = leaseHolder(client);
        String other = leader.equals("replica-a") ? "replica-b" : "replica-a";
        replicas.get(leader).close();
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            assertThat(primaries.owners().values()).hasSize(12).containsOnly(other);
            assertThat(secondaryOwners(client, primaries)).containsOnlyKeys(expectedSecondaries(primaries))
                    .allSatisfy((secondary, owners) -> assertThat(owners).containsExactly(other, other));
        });
        assertThat(DoubleActors.find(cycles.all())).as("double-owned cycles").isEmpty();
    }

    /** The secondaries the test expects: each primary's Secret and the ConfigMap the act phase applies. */
    private static List<String> expectedSecondaries(ShardedWebApps primaries) {
        return primaries.all().stream().flatMap(p -> Stream.of("Secret/" + p.getMetadata().getName() + "-user",
                "ConfigMap/" + p.getMetadata().getName() + "-config")).toList();
    }

    /** Each secondary's shard label, beside its primary's: (secondary's, primary's). */
    private Map<String, List<String>> secondaryOwners(KubernetesClient client, ShardedWebApps primaries) {
        Map<String, String> primaryOwner = new HashMap<>();
        primaries.all().forEach(p -> primaryOwner.put(p.getMetadata().getName(), String.valueOf(ShardedWebApps.owner(p))));
        Map<String, List<String>> owners = new HashMap<>();
        for (HasMetadata secondary : Stream.concat(client.secrets().inNamespace(apps).list().getItems().stream(),
                client.configMaps().inNamespace(apps).list().getItems().stream()).toList()) {
            String name = secondary.getMetadata().getName();
            String primary = name.endsWith("-user") ? name.substring(0, name.length() - "-user".length())
                    : name.endsWith("-config") ? name.substring(0, name.length() - "-config".length()) : null;
            if (!primaryOwner.containsKey(primary)) continue;
            Map<String, String> labels = secondary.getMetadata().getLabels();
            owners.put(secondary.getClass().getSimpleName() + "/" + name, List.of(String.valueOf(labels == null ? null : labels.get(ShardLabels.SHARD)),
                    primaryOwner.get(primary)));
        }
        return owners;
    }

    /** A replica as {@code runbook run --shards --member MEMBER} makes it, at the tests' Lease timing. */
    private OperatorRuntime runtime(KubernetesClient client, String member, CompiledBundle bundle) {
        OperatorMetrics own = OperatorMetrics.create();
        metrics.put(member, own);
        var lease = new OperatorRuntime.Lease(system, "runbook-operator", member, TestCluster.LEADER_ELECTION,
                LeaderElection.leaseClient(client, TestCluster.LEADER_ELECTION));
        var settings = new OperatorRuntime.Settings(List.of(bundle), Set.of(apps), null, lease, Policy.DEFAULT,
                new OperatorRuntime.Presence(system, member), ReconcileThreads.byDefault(), new OperatorRuntime.Shards(member, LOOP));
        OperatorRuntime runtime = new OperatorRuntime(client, settings, Clock.systemUTC(), own, cycles.of(member));
        closing.add(own);
        closing.add(runtime);
        return runtime;
    }

    private String leaseHolder(KubernetesClient client) {
        var lease = client.leases().inNamespace(system).withName("runbook-operator").get();
        return lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    }
}
