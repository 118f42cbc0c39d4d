package dev.runbook.operator.shard;

import dev.runbook.operator.leader.LeaderElection;
import dev.runbook.operator.testkit.ProjectFiles;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Sharding on the real control plane, with replicas in processes of their own
 * ({@code ./runbook run --shards --member NAME --leader-election}, {@link ReplicaProcesses}) and
 * {@value #CLUSTERS_PROPERTY} PostgresClusters (default 300) whose pods kwok runs ({@link ShardedFleet}):
 * <ol>
 *   <li>three replicas bring every cluster to Healthy; each cluster is then labelled with its ring owner
 *       among the live members, and its cycles since are that owner's alone;</li>
 *   <li>the primary pod of a cluster is deleted while the nodes take no new pods; once its failover is
 *       under way in status, its owner is killed with SIGKILL; the failover completes (the target becomes
 *       the current primary, labelled so) under another member, within the Lease duration, the sharder's
 *       notice of the expiry and a cycle;</li>
 *   <li>the killed member comes back under its name, then a fourth joins: each time the clusters move
 *       through drains to the ring of the live members, and are then acted on by their owners alone;</li>
 *   <li>over every cycle of every replica ({@link CycleJournal}, one file per process), no two members'
 *       cycles on one cluster overlapped in time ({@link DoubleActors}).</li>
 * </ol>
 * Not part of {@code mvn verify}: {@code testenv/shards} runs it (CI does), against testenv's control plane
 * given by {@code -Drunbook.it.kubeconfig}. Its figures go to {@code target/shards-e2e/summary.txt}.
 */
@RunbookIT(crds = "../runbooks/postgres-cluster/crds")
class ShardsE2E {
    static final String CLUSTERS_PROPERTY = "runbook.shards.clusters";
    /** More JVM options for every replica: how the test is shown to fail with handover broken (docs/sharding.md). */
    static final String REPLICA_OPTS_PROPERTY = "runbook.shards.replicaJavaOpts";
    static final int CLUSTERS = Integer.getInteger(CLUSTERS_PROPERTY, 300);
    /** A dead member's clusters are acted on again within its Lease's duration, the sharder's poll and one cycle. */
    static final Duration TAKEOVER = LeaderElection.Timing.DEFAULT.leaseDuration().plus(ShardingLoop.Timing.DEFAULT.poll())
            .plus(TestCluster.CONVERGE);
    /** Every cluster cycles at least once per reconcilePeriod (30 s in bundle.yaml); the rest is a loaded machine's margin. */
    static final Duration EVERY_CLUSTER_CYCLES = Duration.ofSeconds(30).plus(TestCluster.CONVERGE);
    static final Duration ALL_HEALTHY = Duration.ofMinutes(10);
    static final Duration REBALANCE = Duration.ofMinutes(3);
    private static final Path ROOT = ProjectFiles.root();
    private static final Path WORK = ROOT.resolve("operator/target/shards-e2e");

    static TestCluster cluster;
    KubernetesClient client;
    @TestNamespace("shards")
    String namespace;

    private final List<String> summary = new ArrayList<>();

    @Test
    void replicasShareTheClustersAndHandThemOverWithoutTwoActors() throws Exception {
        cluster.requireRealApiServer("StatefulSets, kwok's pods, Leases between processes");
        assertThat(cluster.runsPods()).as("the clusters need pods: testenv's kwok node").isTrue();
        resetWork();
        String own = cluster.newNamespace("shards-operator");
        ShardedFleet fleet = new ShardedFleet(client, namespace, CLUSTERS);
        fleet.create();
        String replicaOpts = System.getProperty(REPLICA_OPTS_PROPERTY, "");
        ReplicaProcesses replicas = new ReplicaProcesses(ROOT, WORK, TestCluster.kubeconfig(), namespace, own, replicaOpts);
        replicas.compileTheBundleOnce();
        try (replicas) {
            Instant started = Instant.now();
            for (String member : List.of("replica-a", "replica-b", "replica-c")) replicas.start(member);
            await().atMost(ALL_HEALTHY).pollInterval(Duration.ofSeconds(2)).untilAsserted(() ->
                    assertThat(fleet.healthy()).as("Healthy clusters").isEqualTo(CLUSTERS));
            note("N=%d replicas=3: all Healthy in %d s", CLUSTERS, secondsSince(started));
            settleOnTheRing(fleet, replicas, "three replicas");

            killTheOwnerMidFailover(fleet, replicas);
            settleOnTheRing(fleet, replicas, "two replicas, after the kill");

            replicas.start(killedMember);
            settleOnTheRing(fleet, replicas, killedMember + " back");
            replicas.start("replica-d");
            settleOnTheRing(fleet, replicas, "a fourth replica");
        } finally {
            fleet.cordonNodes(false);
            fleet.delete();
            writeSummary();
        }
        List<DoubleActors.Cycle> cycles = replicas.cycles();
        List<DoubleActors.Overlap> overlaps = DoubleActors.find(cycles);
        note("double-owned cycles %d of %d cycles recorded", overlaps.size(), cycles.size());
        writeSummary();
        assertThat(cycles).hasSizeGreaterThan(CLUSTERS);
        assertThat(overlaps).as("double-owned cycles").isEmpty();
    }

    private String killedMember;

    /**
     * Deletes the victim's primary pod while no node takes pods, waits until its failover is under way,
     * kills its owner, reports the target's promotion as its instance manager would, and waits until
     * another member completes the failover.
     */
    private void killTheOwnerMidFailover(ShardedFleet fleet, ReplicaProcesses replicas) throws InterruptedException {
        String victimKey = fleet.keyOf(ShardedFleet.VICTIM);
        String primary = ShardedFleet.status(fleet.get(ShardedFleet.VICTIM), "currentPrimary");
        assertThat(primary).as(ShardedFleet.VICTIM + "'s current primary").isNotBlank();
        fleet.cordonNodes(true);
        fleet.deletePod(primary);
        GenericKubernetesResource failingOver = await().atMost(TestCluster.CONVERGE.plusSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> fleet.get(ShardedFleet.VICTIM), c -> {
                    String target = ShardedFleet.status(c, "targetPrimary");
                    return target != null && !target.equals(primary);
                });
        String target = ShardedFleet.status(failingOver, "targetPrimary");
        killedMember = ShardedFleet.labels(failingOver).get(ShardLabels.SHARD);
        assertThat(replicas.live()).as("the failing cluster's owner").contains(killedMember);
        Instant killed = Instant.now();
        replicas.kill(killedMember);
        fleet.reportRole(target, "primary");

        await().atMost(TAKEOVER).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            GenericKubernetesResource current = fleet.get(ShardedFleet.VICTIM);
            assertThat(ShardedFleet.status(current, "currentPrimary")).as("current primary").isEqualTo(target);
            assertThat(fleet.podRole(target)).as(target + "'s role label").isEqualTo("primary");
        });
        long completed = Duration.between(killed, Instant.now()).toMillis();
        String successor = fleet.owners().get(victimKey);
        assertThat(successor).as("the owner after the kill").isNotEqualTo(killedMember).isIn(replicas.live());
        assertThat(replicas.cycles()).as(successor + "'s cycles on " + ShardedFleet.VICTIM + " since the kill")
                .anyMatch(c -> c.member().equals(successor) && c.primaryKey().equals(victimKey) && c.start().isAfter(killed));
        note("kill -9 of %s mid-failover of %s (%s -> %s): completed under %s %.1f s after the kill", killedMember,
                ShardedFleet.VICTIM, primary, target, successor, completed / 1000.0);
        fleet.cordonNodes(false);
        await().atMost(TestCluster.CONVERGE).until(() -> fleet.podRole(primary) != null);
        fleet.reportRole(primary, "replica");
        await().atMost(TestCluster.CONVERGE.plusSeconds(30)).untilAsserted(() ->
                assertThat(ShardedFleet.status(fleet.get(ShardedFleet.VICTIM), "phase")).isEqualTo("Healthy"));
    }

    /**
     * Waits until every cluster is labelled with its ring owner among the live members and none drains,
     * then until every cluster has cycled since, and requires those cycles to be their owner's alone.
     */
    private void settleOnTheRing(ShardedFleet fleet, ReplicaProcesses replicas, String when) {
        TreeSet<String> live = replicas.live();
        Instant from = Instant.now();
        Map<String, String> before = fleet.owners();
        await().atMost(REBALANCE).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
                assertThat(fleet.unsettled(live)).as("clusters not yet on the ring of " + live).isEmpty());
        Instant settled = Instant.now();
        Map<String, String> owners = fleet.owners();
        assertThat(Set.copyOf(owners.values())).as("owners").isSubsetOf(live);
        long moved = owners.entrySet().stream().filter(e -> !e.getValue().equals(before.get(e.getKey()))).count();
        await().atMost(EVERY_CLUSTER_CYCLES).pollInterval(Duration.ofSeconds(2)).untilAsserted(() ->
                assertThat(membersActingSince(replicas, settled).keySet()).as("clusters that cycled since " + settled)
                        .hasSize(CLUSTERS));
        Map<String, Set<String>> acting = membersActingSince(replicas, settled);
        assertThat(acting).as("each cluster's cycles since it settled: its owner's alone")
                .allSatisfy((key, members) -> assertThat(members).containsExactly(owners.get(key)));
        Map<String, Long> shares = new java.util.TreeMap<>();
        owners.values().forEach(member -> shares.merge(member, 1L, Long::sum));
        note("%s: on the ring of %s in %d s (%d clusters moved), shares %s", when, live, Duration.between(from, settled).toSeconds(),
                moved, shares);
    }

    private static Map<String, Set<String>> membersActingSince(ReplicaProcesses replicas, Instant since) {
        Map<String, Set<String>> members = new HashMap<>();
        for (DoubleActors.Cycle cycle : replicas.cycles()) {
            if (cycle.start().isAfter(since)) members.computeIfAbsent(cycle.primaryKey(), k -> new TreeSet<>()).add(cycle.member());
        }
        return members;
    }

    private void note(String format, Object... args) {
        String line = "shards-e2e: " + String.format(Locale.ROOT, format, args);
        System.out.println(line);
        summary.add(line);
    }

    private static long secondsSince(Instant start) { return Duration.between(start, Instant.now()).toSeconds(); }

    private static void resetWork() throws IOException {
        Files.createDirectories(WORK);
        try (var files = Files.list(WORK)) {
            for (Path file : files.toList()) Files.delete(file);
        }
    }

    private void writeSummary() throws IOException {
        Files.write(WORK.resolve("summary.txt"), summary, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
    }
}
