package dev.runbook.instance.drill;

import dev.runbook.postgres.contract.PostgresContract;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.runbook.instance.loopback.LoopbackKubelet;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The rolling minor upgrade on real PostgreSQL (docs/testing.md#real-postgresql-drills): spec.image
 * changed under the write load; the upgrade runbook replaces the replicas one at a time, switches
 * over, and replaces the former primary last. Debian's archive carries one minor version of each
 * major, so the new image is the same binaries under another tag: what is drilled is the runbook's
 * order and the instances' restarts, rejoins and switchover, which are the same for any minor.
 *
 * <p>A pod watch sees each replacement the moment its pod turns terminating, and the primary's
 * {@code pg_stat_replication} is read then: every other replica must be streaming (caught up to the
 * point of streaming) before the next one goes.
 */
final class UpgradeDrill {
    private static final Duration UPGRADE = Duration.ofMinutes(8);
    private static final String ROLE = PostgresContract.ROLE_LABEL;

    /** A pod gone (terminating): its name, uid, image and role label then, and the replicas streaming from the primary at that moment. */
    private record Replacement(String pod, String uid, String image, String role, String primary, Set<String> streaming, Set<String> instances) {
        @Override
        public String toString() {
            return pod + " (uid " + uid + ", " + image + ", " + role + ")";
        }
    }

    private final String namespace;
    private final Kubectl kubectl;
    private final KubernetesClient client;
    private final LoopbackKubelet kubelet;
    private final Supplier<WriteLoad> load;
    private final String password;
    private final ClusterReads reads;

    UpgradeDrill(String namespace, Kubectl kubectl, KubernetesClient client, LoopbackKubelet kubelet, Supplier<WriteLoad> load, String password) {
        this.namespace = namespace;
        this.kubectl = kubectl;
        this.client = client;
        this.kubelet = kubelet;
        this.load = load;
        this.password = password;
        this.reads = new ClusterReads(client, namespace);
    }

    String rollTo(String image) throws SQLException {
        String oldPrimary = reads.status("pg", "currentPrimary");
        String oldImage = image(oldPrimary);
        int from = load.get().acked().size();
        List<Replacement> replaced = new CopyOnWriteArrayList<>();
        Set<String> deletedBefore = Set.copyOf(podDeletions());
        Set<String> terminating = ConcurrentHashMap.newKeySet();
        Watch watch = client.pods().inNamespace(namespace).withLabel(PostgresContract.CLUSTER_LABEL, "pg").watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                String name = pod.getMetadata().getName();
                if (pod.getMetadata().getDeletionTimestamp() != null && terminating.add(pod.getMetadata().getUid())) {
                    String primary = reads.status("pg", "currentPrimary");
                    Set<String> instances = client.pods().inNamespace(namespace).withLabel(PostgresContract.CLUSTER_LABEL, "pg").list()
                            .getItems().stream().map(p -> p.getMetadata().getName()).collect(Collectors.toCollection(TreeSet::new));
                    replaced.add(new Replacement(name, pod.getMetadata().getUid(), pod.getSpec().getContainers().get(0).getImage(),
                            pod.getMetadata().getLabels().getOrDefault(ROLE, ""), primary,
                            streamingFrom(primary), instances));
                }
            }

            @Override
            public void onClose(WatcherException cause) {
                // the drill's checks below say what was missed
            }
        });
        try {
            kubectl.run("-n", namespace, "patch", "postgrescluster", "pg", "--type=merge", "-p", "{\"spec\":{\"image\":\"" + image + "\"}}");
            await("every instance runs " + image + ", the cluster Healthy with two streaming replicas").atMost(UPGRADE)
                    .pollInterval(Duration.ofSeconds(1))
                    .until(() -> client.pods().inNamespace(namespace).withLabel(PostgresContract.CLUSTER_LABEL, "pg").list().getItems().stream()
                            .filter(p -> p.getMetadata().getDeletionTimestamp() == null && image.equals(p.getSpec().getContainers().get(0).getImage()))
                            .count() == 3
                            && "Healthy".equals(reads.status("pg", "phase"))
                            && streamingFrom(reads.status("pg", "currentPrimary")).size() == 2);
        } finally {
            watch.close();
        }
        String newPrimary = reads.status("pg", "currentPrimary");
        // Every pod that went while the upgrade ran is listed, but only those that ran the old image are
        // the upgrade's replacements; who deleted each pod is in the events (the runbook's name the rule).
        List<String> deletions = podDeletions().stream().filter(d -> !deletedBefore.contains(d)).toList();
        List<Replacement> upgraded = replaced.stream().filter(r -> !image.equals(r.image())).toList();
        assertThat(upgraded).as("one replacement per instance; pods gone while the upgrade ran: %s; who deleted pods: %s", replaced, deletions)
                .extracting(Replacement::pod).hasSize(3).doesNotHaveDuplicates();
        assertThat(deletions.stream().filter(d -> d.contains(" runbook-operator Deleted ") && d.contains(" delete Pod ")))
                .as("the runbook deleted each instance's pod once; pods gone while the upgrade ran: %s", replaced)
                .hasSize(3).allMatch(d -> d.contains(" Deleted x1: "));
        assertThat(upgraded.get(2).pod()).as("the former primary is replaced last").isEqualTo(oldPrimary);
        assertThat(newPrimary).as("the upgrade switched over").isNotEqualTo(oldPrimary);
        for (Replacement r : upgraded) {
            assertThat(r.role()).as(r.pod() + " was a replica when it was replaced").isEqualTo("replica");
            Set<String> others = new TreeSet<>(r.instances());
            others.remove(r.pod());
            others.remove(r.primary());
            assertThat(r.streaming()).as("when " + r.pod() + " was replaced, every other replica streamed from " + r.primary())
                    .containsAll(others);
        }
        Set<Long> lost = WriteLoad.missing(load.get().acked().subList(from, load.get().acked().size()), kubelet.port(newPrimary), password);
        int acked = load.get().acked().size() - from;
        assertThat(lost).as("acknowledged writes lost in the rolling upgrade").isEmpty();
        return String.format(Locale.ROOT, "%s to %s: %s replaced one at a time (every other replica streaming before each), switched over"
                        + " from %s to %s before %s went, lost %d of %d acknowledged writes",
                oldImage, image, upgraded.stream().map(Replacement::pod).collect(Collectors.joining(", ")), oldPrimary, newPrimary, oldPrimary,
                lost.size(), acked);
    }

    /**
     * The namespace's events that say who deleted a pod: the operator's (Deleted, naming the rule), the
     * StatefulSet controller's (SuccessfulDelete) and the taint manager's (TaintManagerEviction).
     */
    private List<String> podDeletions() {
        Set<String> reasons = Set.of("Deleted", "SuccessfulDelete", "TaintManagerEviction");
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> reasons.contains(e.getReason()))
                .map(e -> e.getLastTimestamp() + " " + (e.getSource() == null ? e.getReportingComponent() : e.getSource().getComponent()) + " " + e.getReason() + " x" + e.getCount() + ": " + e.getMessage())
                .sorted().toList();
    }

    private String image(String pod) {
        Pod p = client.pods().inNamespace(namespace).withName(pod).get();
        return p == null ? "" : p.getSpec().getContainers().get(0).getImage();
    }

    /** The replicas the server of {@code primary} lists as streaming (empty when it does not answer). */
    private Set<String> streamingFrom(String primary) {
        Set<String> names = new TreeSet<>();
        if (primary == null || primary.isEmpty()) {
            return names;
        }
        try (Connection c = WriteLoad.connect(kubelet.port(primary), password); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select application_name from pg_stat_replication where state = 'streaming'")) {
            while (r.next()) {
                names.add(r.getString(1));
            }
        } catch (SQLException e) {
            return names;
        }
        return names;
    }

    /** The running PostgreSQL's version ({@code 15.18}), for an image tag of the same binaries. */
    static String serverVersion(java.nio.file.Path pgBin) {
        String out = Commands.run(new ProcessBuilder(pgBin.resolve("postgres").toString(), "--version"), null, "postgres --version");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+\\.\\d+)").matcher(out);
        if (!m.find()) {
            throw new IllegalStateException("no version in: " + out);
        }
        return m.group(1);
    }
}
