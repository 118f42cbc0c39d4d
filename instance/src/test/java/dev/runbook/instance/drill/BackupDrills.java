package dev.runbook.instance.drill;

import dev.runbook.postgres.contract.PostgresContract;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.runbook.instance.loopback.LoopbackKubelet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The backup and restore drills (docs/testing.md#backup-and-restore-drills), on the cluster {@code pg}
 * of {@link PgDrillsE2E} under its write load: a scheduled and an on-demand base backup into the
 * object store of testenv/s3 (Barman Cloud run by the instance managers and the backup Jobs), each
 * restored into a new cluster that must hold every row acknowledged before the backup ended; a
 * point-in-time restore that must hold the rows acknowledged before the target and none sent after
 * it; retention checked on the store's objects.
 */
final class BackupDrills {
    static final String STORE_SECRET = "pg-backup-store";
    static final String RESTORED_SECRET = "restored-credentials";
    private static final Duration BACKUP_WAIT = Duration.ofMinutes(4);
    private static final Duration RESTORE_WAIT = Duration.ofMinutes(5);
    private static final String LAST_ARCHIVED = PostgresContract.LAST_ARCHIVED_WAL;

    /** One completed backup, as its Job's annotations say. */
    record Taken(String name, String id, long size, String beginWal, String endWal, Instant endTime) {
    }

    private final String namespace;
    private final Kubectl kubectl;
    private final KubernetesClient client;
    private final ClusterReads reads;
    private final LoopbackKubelet kubelet;
    private final Supplier<WriteLoad> load;
    private final ObjectStoreClient store;
    private final String restoredPassword;
    private final String password;
    /** Rows acknowledged and then lost in the asynchronous failover drills before these: no backup can hold them. */
    private Set<Long> lostEarlier;
    private Taken scheduled;
    private Taken onDemand;
    private List<String> walsBeforeRetention = List.of();
    long restoreVerified;
    long restoreChecked;
    boolean pitrVerified;

    BackupDrills(String namespace, Kubectl kubectl, KubernetesClient client, LoopbackKubelet kubelet, Supplier<WriteLoad> load,
                 ObjectStoreClient store, String password, String restoredPassword) {
        this.namespace = namespace;
        this.kubectl = kubectl;
        this.client = client;
        this.reads = new ClusterReads(client, namespace);
        this.kubelet = kubelet;
        this.load = load;
        this.store = store;
        this.password = password;
        this.restoredPassword = restoredPassword;
    }

    /** spec.backup.objectStore of the drills' clusters: its own prefix per run, the loopback endpoint, the keys' Secret. */
    static String objectStoreYaml(ObjectStoreClient store, String namespace) {
        return "{destinationPath: '" + store.destination(namespace) + "', endpointURL: '" + store.endpoint()
                + "', s3Credentials: {secretName: " + STORE_SECRET + "}}";
    }

    String scheduledBackup() throws SQLException {
        List<WriteLoad.Ack> sofar = load.get().acked();
        lostEarlier = WriteLoad.missing(sofar, kubelet.port(primary()), password);
        kubectl.run("-n", namespace, "patch", "postgrescluster", "pg", "--type=merge", "-p",
                "{\"spec\":{\"backup\":{\"schedule\":\"* * * * *\",\"retention\":{\"count\":2}}}}");
        Predicate<Job> scheduledJob = j -> "schedule".equals(annotation(j, PostgresContract.BACKUP_TRIGGER));
        // The schedule's next minute (up to 60 s away), then the cycle it requeued for: on a loaded machine that
        // cycle can come late, so the wait is the minute plus a drill's convergence.
        await("a scheduled backup starts").atMost(Duration.ofSeconds(60).plus(PgDrillsE2E.CONVERGE)).pollInterval(Duration.ofMillis(500))
                .until(() -> find(scheduledJob) != null);
        // One scheduled backup is the drill: the schedule goes at once, so the count of backups stays what retention expects.
        kubectl.run("-n", namespace, "patch", "postgrescluster", "pg", "--type=json", "-p", "[{\"op\":\"remove\",\"path\":\"/spec/backup/schedule\"}]");
        Job job = awaitBackup(scheduledJob, "the scheduled backup");
        scheduled = taken(job);
        return describe(job, scheduled);
    }

    String onDemandBackup() {
        kubectl.run("-n", namespace, "patch", "postgrescluster", "pg", "--type=merge", "-p", "{\"spec\":{\"backup\":{\"onDemand\":\"drill-one\"}}}");
        Job job = awaitBackup(j -> "pg-backup-drill-one".equals(j.getMetadata().getName()), "the on-demand backup drill-one");
        onDemand = taken(job);
        walsBeforeRetention = store.walFiles(namespace, "pg");
        return describe(job, onDemand);
    }

    String restoreScheduled() throws SQLException {
        return restore(scheduled, "restored-a");
    }

    String restoreOnDemand() throws SQLException {
        return restore(onDemand, "restored-b");
    }

    /** A restore of {@code backup} into a new one-instance cluster holds every row acknowledged before the backup ended. */
    private String restore(Taken backup, String cluster) throws SQLException {
        assertThat(backup).as("the backup to restore was taken").isNotNull();
        awaitArchived(backup.endWal());
        kubectl.apply(recoveryCluster(cluster, "backup: " + backup.name()));
        String pod = awaitRestored(cluster);
        Set<Long> present = WriteLoad.present(kubelet.port(pod), restoredPassword);
        List<WriteLoad.Ack> before = load.get().acked().stream().filter(a -> a.ackedAtMillis() < backup.endTime().toEpochMilli())
                .filter(a -> !lostEarlier.contains(a.id())).toList();
        List<Long> missing = before.stream().map(WriteLoad.Ack::id).filter(id -> !present.contains(id)).sorted().toList();
        restoreChecked += before.size();
        restoreVerified += before.size() - missing.size();
        assertThat(missing).as("rows acknowledged before %s ended (%s) that %s lacks", backup.name(), backup.endTime(), cluster).isEmpty();
        String restored = reads.podAnnotation(pod, PostgresContract.RESTORE);
        kubectl.run("-n", namespace, "delete", "postgrescluster", cluster, "--wait=false");
        return String.format(Locale.ROOT, "%s restored into %s (%s): all %d rows acknowledged before %s are there (%d rows in all;"
                        + " %d lost in the failover drills before left out)", backup.name(), cluster, restored, before.size(), backup.endTime(),
                present.size(), lostEarlier.size());
    }

    /** A restore to a target time holds the rows acknowledged before it and none of those sent after it. */
    String pointInTime() throws SQLException {
        Instant target = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        await("rows are committed after the target time").atMost(Duration.ofSeconds(60))
                .until(() -> load.get().acked().stream().filter(a -> a.sentAtMillis() > target.toEpochMilli() + 3000).count() > 20);
        // A second on-demand backup: its end makes the WAL past the target archived, and its Job applies retention (count 2).
        kubectl.run("-n", namespace, "patch", "postgrescluster", "pg", "--type=merge", "-p", "{\"spec\":{\"backup\":{\"onDemand\":\"drill-two\"}}}");
        Job job = awaitBackup(j -> "pg-backup-drill-two".equals(j.getMetadata().getName()), "the on-demand backup drill-two");
        Taken after = taken(job);
        awaitArchived(after.endWal());
        kubectl.apply(recoveryCluster("pitr", "targetTime: '" + target + "'"));
        String pod = awaitRestored("pitr");
        Set<Long> present = WriteLoad.present(kubelet.port(pod), restoredPassword);
        List<WriteLoad.Ack> acked = load.get().acked();
        List<WriteLoad.Ack> before = acked.stream().filter(a -> a.ackedAtMillis() < target.toEpochMilli())
                .filter(a -> !lostEarlier.contains(a.id())).toList();
        List<WriteLoad.Ack> sentAfter = acked.stream().filter(a -> a.sentAtMillis() > target.toEpochMilli()).toList();
        List<Long> missing = before.stream().map(WriteLoad.Ack::id).filter(id -> !present.contains(id)).sorted().toList();
        List<Long> extra = sentAfter.stream().map(WriteLoad.Ack::id).filter(present::contains).sorted().toList();
        assertThat(missing).as("rows acknowledged before the target time %s that the restore lacks", target).isEmpty();
        assertThat(extra).as("rows sent after the target time %s that the restore has", target).isEmpty();
        assertThat(sentAfter).as("rows sent after the target exist to check").isNotEmpty();
        pitrVerified = true;
        kubectl.run("-n", namespace, "delete", "postgrescluster", "pitr", "--wait=false");
        return String.format(Locale.ROOT, "target %s: all %d rows acknowledged before it are there, none of the %d sent after it;"
                + " base backup %s", target, before.size(), sentAfter.size(), reads.podAnnotation(pod, PostgresContract.RESTORE));
    }

    /** After drill-two's Job (REDUNDANCY 2): the scheduled backup and the WAL only it needed are gone from the store. */
    String retention() {
        assertThat(scheduled).as("the scheduled backup was taken").isNotNull();
        String list = store.backupList(namespace, "pg");
        assertThat(list).as("barman-cloud-backup-list").doesNotContain("\"" + scheduled.id() + "\"").contains("\"" + onDemand.id() + "\"");
        List<String> wals = store.walFiles(namespace, "pg");
        Predicate<String> onlyScheduledNeeded = w -> w.compareTo(scheduled.beginWal()) >= 0 && w.compareTo(onDemand.beginWal()) < 0;
        long before = walsBeforeRetention.stream().filter(onlyScheduledNeeded).count();
        assertThat(before).as("WAL files between the two backups' begin before retention").isPositive();
        assertThat(wals.stream().filter(onlyScheduledNeeded).toList()).as("WAL files only %s needed, after retention", scheduled.name()).isEmpty();
        assertThat(wals).as("the WAL of the kept backups").contains(onDemand.beginWal());
        return String.format(Locale.ROOT, "%s (%s) deleted with its %d WAL files; %s and the newest kept (%d WAL files left)",
                scheduled.name(), scheduled.id(), before, onDemand.name(), wals.size());
    }

    // ---- steps ----

    private Job awaitBackup(Predicate<Job> which, String what) {
        await(what + " finishes").atMost(BACKUP_WAIT).pollInterval(Duration.ofSeconds(1)).until(() -> find(which) != null && finished(find(which)));
        Job job = find(which);
        String error = annotation(job, PostgresContract.BACKUP_ERROR);
        assertThat(job.getStatus().getSucceeded()).as(what + " failed: " + error).isEqualTo(1);
        assertThat(annotation(job, PostgresContract.BACKUP_ID)).as("the backup's id on " + job.getMetadata().getName()).isNotEmpty();
        return job;
    }

    private Job find(Predicate<Job> which) {
        return client.batch().v1().jobs().inNamespace(namespace).withLabel(PostgresContract.BACKUP_LABEL, "true").list().getItems().stream()
                .filter(which).findFirst().orElse(null);
    }

    private static boolean finished(Job job) {
        var s = job.getStatus();
        return s != null && ((s.getSucceeded() != null && s.getSucceeded() > 0) || (s.getFailed() != null && s.getFailed() > 0));
    }

    private static Taken taken(Job job) {
        return new Taken(job.getMetadata().getName(), annotation(job, PostgresContract.BACKUP_ID),
                Long.parseLong(annotation(job, PostgresContract.BACKUP_SIZE)), annotation(job, PostgresContract.BACKUP_BEGIN_WAL),
                annotation(job, PostgresContract.BACKUP_END_WAL), Instant.parse(annotation(job, PostgresContract.BACKUP_END_TIME)));
    }

    private static String describe(Job job, Taken t) {
        return String.format(Locale.ROOT, "%s from %s: id %s, %d bytes, WAL %s to %s, ended %s", t.name(),
                annotation(job, PostgresContract.BACKUP_SOURCE), t.id(), t.size(), t.beginWal(), t.endWal(), t.endTime());
    }

    /** The primary of pg has archived the backup's last WAL file (its last-archived-wal annotation, from pg_stat_archiver). */
    private void awaitArchived(String endWal) {
        await("the primary archives " + endWal).atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
                .until(() -> reads.podAnnotation(primary(), LAST_ARCHIVED).compareTo(endWal) >= 0);
    }

    private String recoveryCluster(String name, String choice) {
        return "apiVersion: postgres.runbook.dev/v1alpha1\nkind: PostgresCluster\nmetadata: {name: " + name + ", namespace: " + namespace + "}\n"
                + "spec:\n  instances: 1\n  image: postgres:15\n  storage: {size: 1Gi}\n  credentials: {secretName: " + RESTORED_SECRET + "}\n"
                + "  bootstrap:\n    recovery:\n      source: {objectStore: " + objectStoreYaml(store, namespace) + ", serverName: pg}\n"
                + "      " + choice + "\n";
    }

    private String awaitRestored(String cluster) {
        String pod = cluster + "-0";
        await(cluster + " is restored and Healthy").atMost(RESTORE_WAIT).pollInterval(Duration.ofSeconds(1))
                .failFast(() -> {
                    String error = reads.podAnnotation(pod, PostgresContract.RESTORE_ERROR);
                    if (!error.isEmpty() && error.contains("not found")) {
                        throw new AssertionError(cluster + ": " + error);
                    }
                })
                .until(() -> "Healthy".equals(reads.status(cluster, "phase")) && "primary".equals(reads.podAnnotation(pod, PostgresContract.REPORTED_ROLE))
                        && reads.podAnnotation(pod, PostgresContract.RESTORE).startsWith("restored "));
        return pod;
    }

    private String primary() {
        return reads.status("pg", "currentPrimary");
    }

    private static String annotation(Job job, String key) {
        return job.getMetadata().getAnnotations() == null ? "" : job.getMetadata().getAnnotations().getOrDefault(key, "");
    }
}
