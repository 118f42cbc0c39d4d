package dev.runbook.instance.backup;

import dev.runbook.postgres.contract.PostgresContract;
import dev.runbook.instance.address.Addresses;
import dev.runbook.instance.address.ClusterDnsAddresses;
import dev.runbook.instance.address.LoopbackAddresses;
import dev.runbook.instance.report.MergePatch;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.function.Consumer;

/** Wires {@link BackupJob} from the Job pod's environment: HTTP to the source, Barman for retention, its own Job for the report. */
public final class BackupJobMain {
    private BackupJobMain() {
    }

    /** The exit code: 0 when the backup was taken, 1 when not (the Job then fails and its annotation says why). */
    public static int run(Map<String, String> env) {
        try (KubernetesClient client = new KubernetesClientBuilder().build()) {
            String namespace = env.getOrDefault("POD_NAMESPACE", "");
            String job = env.getOrDefault("BACKUP_JOB_NAME", "");
            Consumer<Map<String, String>> annotateJob = annotations -> client.batch().v1().jobs().inNamespace(namespace).withName(job)
                    .patch(PatchContext.of(PatchType.JSON_MERGE), MergePatch.annotations(annotations));
            BackupJobSettings settings;
            try {
                settings = BackupJobSettings.fromEnvironment(env);
            } catch (IllegalArgumentException e) {
                System.err.println("runbook-instance backup: " + e.getMessage());
                if (!namespace.isEmpty() && !job.isEmpty()) {
                    annotateJob.accept(Map.of(PostgresContract.BACKUP_ERROR, e.getMessage()));
                }
                return 1;
            }
            Addresses addresses = settings.addressFile().<Addresses>map(LoopbackAddresses::new)
                    .orElseGet(() -> new ClusterDnsAddresses(settings.clusterName(), settings.namespace(), 5432));
            BarmanCommands barman = new BarmanCommands(scratch(), Map.of());
            return new BackupJob(settings, new HttpBackupSource(addresses, settings.callerToken()), barman::delete, annotateJob, Clock.systemUTC()).run();
        }
    }

    private static Path scratch() {
        try {
            return Files.createTempDirectory("runbook-backup");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot make a scratch directory for the tools' output", e);
        }
    }
}
