package dev.runbook.operator.shard;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.cycle.CycleListener;
import dev.runbook.operator.leader.LeaderElection;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import dev.runbook.rules.fact.Primary;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two sharded operators (each runs the primaries labelled with its member name, acknowledging drains)
 * with the sharder's loop in the leader, on 20 primaries (WebApps) of the greeter bundle: one replica
 * takes all; when a second joins, the primaries that are its on the ring move through a drain that the
 * first's reconciler acknowledges, and each primary is owned by exactly one replica; after a change to every primary each is reconciled by its
 * owner alone; when one replica stops the other takes all; and no two replicas' cycles on one primary
 * ever overlap ({@link DoubleActors}).
 */
@RunbookIT(crds = "src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml")
class ShardedOperatorsIT {
    private static final String API_VERSION = "test.runbook.dev/v1";
    private static final String KIND = "WebApp";
    static CompiledBundle greeter;

    @TestNamespace("sharded")
    String namespace;

    /** Every cycle any replica ran: member, primary, from its decision's start to its record. */
    final List<DoubleActors.Cycle> cycles = Collections.synchronizedList(new ArrayList<>());

    @BeforeAll
    static void compile() {
        greeter = BundleCompiler.compile(BundleLoader.load(Path.of("src/test/resources/bundles/greeter")));
    }

    @Test
    void eachPrimaryIsOwnedAndReconciledByExactlyOneReplica(KubernetesClient client) {
        for (int i = 0; i < 20; i++) {
            client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).resource(new GenericKubernetesResourceBuilder()
                    .withApiVersion(API_VERSION).withKind(KIND).withNewMetadata().withName("app-" + i).endMetadata()
                    .addToAdditionalProperties("spec", Map.of("counter", "1")).build()).create();
        }
        try (ShardReplica a = replica(client, "replica-a")) {
            await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(primaries(client)).hasSize(20).allSatisfy(p -> {
                assertThat(owner(p)).isEqualTo("replica-a");
                assertThat(status(p, "seen")).isEqualTo("1");
            }));
            // b joins: the primaries that are b's on the ring are drained from a, handed back by a's reconciler, then b's.
            try (ShardReplica b = replica(client, "replica-b")) {
                HashRing ring = HashRing.of(Set.of("replica-a", "replica-b"));
                await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(primaries(client)).hasSize(20).allSatisfy(p -> {
                    assertThat(owner(p)).isEqualTo(ring.ownerOf(keyOf(p)).orElseThrow());
                    assertThat(p.getMetadata().getLabels()).doesNotContainKey(ShardLabels.DRAIN);
                    assertThat(status(p, "seen")).isEqualTo("1");
                }));
                assertThat(owners(client).values()).contains("replica-a", "replica-b");

                Instant bumped = Instant.now();
                setCounter(client, "2");
                await().atMost(TestCluster.CONVERGE).untilAsserted(() ->
                        assertThat(primaries(client)).allSatisfy(p -> assertThat(status(p, "seen")).isEqualTo("2")));
                Map<String, String> owners = owners(client);
                assertThat(membersSince(bumped)).as("after the change, each primary's cycles are its owner's alone")
                        .allSatisfy((primary, members) -> assertThat(members).containsExactly(owners.get(primary)));
            }
            // b stopped (it stood down, then released its Leases): a takes all.
            await().atMost(TestCluster.CONVERGE).untilAsserted(() ->
                    assertThat(owners(client).values()).hasSize(20).containsOnly("replica-a"));
            setCounter(client, "3");
            await().atMost(TestCluster.CONVERGE).untilAsserted(() ->
                    assertThat(primaries(client)).allSatisfy(p -> assertThat(status(p, "seen")).isEqualTo("3")));
        }
        assertThat(cycles).isNotEmpty();
        assertThat(DoubleActors.find(List.copyOf(cycles))).as("double-owned cycles").isEmpty();
    }

    private Map<String, Set<String>> membersSince(Instant since) {
        Map<String, Set<String>> members = new HashMap<>();
        for (DoubleActors.Cycle cycle : List.copyOf(cycles)) {
            if (cycle.start().isAfter(since)) members.computeIfAbsent(cycle.primaryKey(), k -> new java.util.TreeSet<>()).add(cycle.member());
        }
        return members;
    }

    private void setCounter(KubernetesClient client, String counter) {
        for (GenericKubernetesResource primary : primaries(client)) {
            client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).withName(primary.getMetadata().getName())
                    .edit(p -> {
                        p.setAdditionalProperty("spec", Map.of("counter", counter));
                        return p;
                    });
        }
    }

    private List<GenericKubernetesResource> primaries(KubernetesClient client) {
        return client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).list().getItems();
    }

    private Map<String, String> owners(KubernetesClient client) {
        Map<String, String> owners = new HashMap<>();
        for (GenericKubernetesResource primary : primaries(client)) {
            if (owner(primary) != null) owners.put(keyOf(primary), owner(primary));
        }
        return owners;
    }

    private static String owner(GenericKubernetesResource primary) {
        return primary.getMetadata().getLabels() == null ? null : primary.getMetadata().getLabels().get(ShardLabels.SHARD);
    }

    @SuppressWarnings("unchecked")
    private static String status(GenericKubernetesResource primary, String field) {
        Object status = primary.getAdditionalProperties().get("status");
        return status instanceof Map<?, ?> map ? String.valueOf(((Map<String, Object>) map).get(field)) : null;
    }

    private String keyOf(GenericKubernetesResource primary) {
        return ShardLabels.keyOf("test.runbook.dev", KIND, namespace, primary.getMetadata().getName());
    }

    /** Records each cycle of one member, timed from its decision's start to its record, on the reconciling thread. */
    private CycleListener recording(String member) {
        Map<Thread, Instant> started = new ConcurrentHashMap<>();
        return new CycleListener() {
            @Override
            public void decisionStarted(Primary primary) { started.put(Thread.currentThread(), Instant.now()); }

            @Override
            public void cycleRecorded(Primary primary, CycleReport report) {
                Instant end = Instant.now();
                Instant start = started.getOrDefault(Thread.currentThread(), end);
                started.remove(Thread.currentThread());
                cycles.add(new DoubleActors.Cycle(member,
                        ShardLabels.keyOf("test.runbook.dev", KIND, primary.getNamespace(), primary.getName()), start, end));
            }
        };
    }

    /** A replica that runs a sharded operator while it holds its member Lease (and the sharder's loop while it leads). */
    private ShardReplica replica(KubernetesClient client, String name) {
        RunbookOperator[] operator = new RunbookOperator[1];
        return new ShardReplica(client, namespace, name, API_VERSION, KIND, new LeaderElection.Candidate() {
            @Override
            public void lead() {
                operator[0] = RunbookOperator.builder(client).bundles(List.of(greeter)).namespaces(Set.of(namespace))
                        .shardMember(name).listener(recording(name)).build();
                operator[0].start();
            }

            @Override
            public void standBy() {
                if (operator[0] != null) operator[0].close();
                operator[0] = null;
            }
        });
    }
}
